/**
 * `npm run doctor`: what a store's IT runs before starting the server, or when it misbehaves.
 * It reports the Node.js running it (warning on one package.json does not support), reads the
 * configuration as the server would, looks at the store and its migrations without changing
 * them, reaches the service with the tokens (one harmless read: a page of one reward), compares
 * the service's clock with this machine's, and looks at the backups. Each item says what it
 * found and, when something is wrong, how to fix it. It changes nothing and may run beside a
 * running server.
 */
import { existsSync } from 'node:fs';
import { readConfig, resolveAppDb } from '../app/config';
import type { Config } from '../app/config';
import type { Fetcher } from '../app/upstream/client';
import { inspectStore, writableFolder } from '../store';
import { newestScheduledBackup } from './backup-schedule';
import {
  checkClock,
  duration,
  reachSandbox,
  reachService,
  withSandboxUpstream,
} from './doctor-service';
import { checkStores } from './doctor-stores';
import type { Check, CheckStatus } from './doctor-service';
import { currentRuntime } from './runtime';
import type { Runtime } from './runtime';

export interface DoctorOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The project folder: data/app.db and data/sandbox.db are under it by default. */
  root: string;
  /** How requests reach the live service; global fetch by default. */
  fetcher?: Fetcher;
  now?: () => number;
  /** How long the service and the store may take to answer. Default 10 s. */
  timeoutMs?: number;
  /** A clock difference above this is reported. Default 60 s. */
  clockToleranceMs?: number;
  /** The Node.js to report; this process's by default. */
  runtime?: { version: string; execPath: string };
}

const SYMBOL: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗', info: '–' };

/** Where a PostgreSQL URL points, without its user and password. */
function postgresPlace(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL em ${u.host}${u.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/**
 * The Node.js running the doctor (npm runs it on the one the server runs on). SQLite's driver
 * is a native addon that may crash an unsupported runtime (better-sqlite3 13 does on Node.js
 * 20), so on one the SQLite files are not opened: the caller leaves those checks out.
 */
function checkRuntime(runtime: Runtime): Check {
  const title = 'Node.js';
  const where = `${runtime.version} em ${runtime.execPath}`;
  if (runtime.supported) {
    return { title, status: 'ok', detail: `${where} (o projeto pede ${runtime.engines}).` };
  }
  return {
    title,
    status: 'warn',
    detail: `${where}: versão não suportada (o projeto pede ${runtime.engines}); os arquivos SQLite não foram abertos nela.`,
    fix: 'Rode pelo npm (npm run doctor, npm start): o npm install traz o Node.js 24 em node_modules/.bin/node. Num serviço, use esse binário: ExecStart=/opt/fidelidade-pdv/node_modules/.bin/node dist-server/main.js.',
  };
}

/** A check not run because the runtime is unsupported (see checkRuntime). */
function notOnThisRuntime(title: string): Check {
  return { title, status: 'info', detail: 'não verificado nesta versão do Node.js (veja acima).' };
}

function describeConfig(config: Config, appDb: string): string {
  const s = config.server;
  const mode =
    s.mode === 'live'
      ? `serviço real (${s.baseUrl}), estabelecimento ${s.establishmentId}` +
        (s.establishmentName === null ? '' : ` "${s.establishmentName}"`)
      : `sandbox embutido, estabelecimento ${s.establishmentId}`;
  const db = config.access.databaseUrl;
  return `${mode}; banco ${db === null ? `SQLite em ${appDb}` : postgresPlace(db)}; ouve em ${s.host}:${s.port}`;
}

async function checkStore(config: Config, appDb: string, timeoutMs: number): Promise<Check> {
  const title = 'Banco do servidor';
  const url = config.access.databaseUrl;
  const place = url === null ? `SQLite em ${appDb}` : postgresPlace(url);
  const found = await inspectStore({ databaseUrl: url, sqlitePath: appDb, timeoutMs });
  if (!found.reachable) {
    return {
      title,
      status: 'fail',
      detail: `${place} não respondeu: ${found.error}`,
      fix:
        url === null
          ? 'Confira APP_DB e se o usuário do serviço pode ler e escrever no arquivo e na pasta dele.'
          : 'Confira DATABASE_URL (servidor, porta, usuário, senha e banco) e se o PostgreSQL aceita conexões desta máquina (pg_hba.conf, firewall).',
    };
  }
  if (found.unknown.length > 0) {
    return {
      title,
      status: 'fail',
      detail: `${place} tem migrações que esta versão não conhece (${found.unknown.join(', ')}): uma versão mais nova do servidor já o usou, e esta não inicia nele.`,
      fix: 'Rode a versão mais nova do servidor, ou restaure o backup feito antes da atualização (docs/backups.md).',
    };
  }
  if (!found.exists) {
    return { title, status: 'ok', detail: `${place}: será criado quando o servidor iniciar.` };
  }
  if (found.pending.length > 0) {
    return {
      title,
      status: 'warn',
      detail: `${place} responde; ${found.pending.length} migração(ões) pendente(s) (${found.pending.join(', ')}): o servidor as aplica ao iniciar.`,
      fix: 'Normal numa atualização: faça um backup antes de iniciar a nova versão (docs/backups.md).',
    };
  }
  return { title, status: 'ok', detail: `${place} responde; migrações em dia.` };
}

function checkBackups(config: Config, now: number): Check {
  const title = 'Backups';
  if (config.access.databaseUrl !== null) {
    return {
      title,
      status: 'info',
      detail:
        'PostgreSQL: os backups são do banco, com pg_dump (docs/backups.md); não verificados aqui.',
    };
  }
  const b = config.backup;
  if (b === null) {
    return config.server.mode === 'sandbox'
      ? { title, status: 'info', detail: 'sandbox: nenhum backup agendado (BACKUP_DIR).' }
      : {
          title,
          status: 'warn',
          detail: 'nenhum backup agendado: as vendas guardadas e os terminais só existem no banco.',
          fix: 'Defina BACKUP_DIR (e BACKUP_KEEP), ou agende npm run backup; guarde o APP_SECRET junto (docs/backups.md).',
        };
  }
  const every = `a cada ${duration(b.everyMs)}, mantém ${b.keep}`;
  if (!writableFolder(b.dir)) {
    return {
      title,
      status: 'fail',
      detail: `BACKUP_DIR=${b.dir} não pode ser escrito por este usuário.`,
      fix: 'Dê ao usuário do serviço permissão de escrita na pasta (ou em ReadWritePaths do systemd).',
    };
  }
  const newest = existsSync(b.dir) ? newestScheduledBackup(b.dir) : null;
  if (newest === null) {
    return {
      title,
      status: 'ok',
      detail: `BACKUP_DIR=${b.dir}, ${every}; nenhum ainda (o primeiro sai quando o servidor iniciar).`,
    };
  }
  const age = now - newest;
  return age > 2 * b.everyMs
    ? {
        title,
        status: 'warn',
        detail: `BACKUP_DIR=${b.dir}, ${every}; o mais recente tem ${duration(age)}.`,
        fix: 'O servidor está parado ou os backups falham: procure "store backup failed" no log.',
      }
    : {
        title,
        status: 'ok',
        detail: `BACKUP_DIR=${b.dir}, ${every}; o mais recente tem ${duration(age)}.`,
      };
}

/** The demo chain's stores, read through the sandbox's file when it is there. */
async function sandboxStores(config: Config, appDb: string, root: string): Promise<Check | null> {
  if (config.server.mode !== 'sandbox') return null;
  return withSandboxUpstream(config.server, root, (upstream) =>
    checkStores(config, appDb, upstream),
  );
}

/** Runs every check, in order: Node.js, configuration, store, service, clock, backups. */
export async function runDoctor(o: DoctorOptions): Promise<Check[]> {
  const now = o.now ?? Date.now;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const runtime = currentRuntime(o.root, o.runtime);
  const runtimeCheck = checkRuntime(runtime);
  const read = readConfig(o.env);
  if (!read.ok) {
    return [
      runtimeCheck,
      {
        title: 'Configuração',
        status: 'fail',
        detail: read.error,
        fix: 'Corrija as variáveis citadas (a tabela de configuração do README diz o que cada uma aceita); os outros itens são verificados depois disso.',
      },
    ];
  }
  const config = read.config;
  const appDb = resolveAppDb(config.access.appDb, o.root);
  // PostgreSQL's client is plain JavaScript: checked on any runtime.
  const storeCheckable = runtime.supported || config.access.databaseUrl !== null;
  const checks: Check[] = [
    runtimeCheck,
    { title: 'Configuração', status: 'ok', detail: describeConfig(config, appDb) },
    storeCheckable
      ? await checkStore(config, appDb, timeoutMs)
      : notOnThisRuntime('Banco do servidor'),
  ];
  const server = config.server;
  if (server.mode === 'live') {
    const fetcher = o.fetcher ?? { fetch: (req: Request) => fetch(req) };
    const reached = await reachService({ ...config, server }, { fetcher, now, timeoutMs });
    checks.push(reached.service, checkClock(reached.clock, o.clockToleranceMs ?? 60_000));
    // A chain's other stores: each token with one harmless read.
    const stores = storeCheckable
      ? await checkStores(config, appDb, {
          fetcher,
          baseUrl: server.baseUrl,
          appToken: server.appToken,
          timeoutMs,
        })
      : null;
    if (stores !== null) checks.push(stores);
  } else {
    checks.push(
      runtime.supported
        ? await reachSandbox({ ...config, server }, o.root)
        : notOnThisRuntime('Serviço de fidelidade'),
      checkClock(null, 0),
    );
    if (runtime.supported) {
      const stores = await sandboxStores(config, appDb, o.root);
      if (stores !== null) checks.push(stores);
    }
  }
  checks.push(checkBackups(config, now()));
  return checks;
}

/** The checklist for a terminal: one line per item, how to fix it under each problem. */
export function formatChecks(checks: Check[]): string {
  const lines = checks.flatMap((c) => [
    `${SYMBOL[c.status]} ${c.title}: ${c.detail}`,
    ...(c.fix !== undefined && (c.status === 'fail' || c.status === 'warn')
      ? [`    Como resolver: ${c.fix}`]
      : []),
  ]);
  const fails = checks.filter((c) => c.status === 'fail').length;
  const warns = checks.filter((c) => c.status === 'warn').length;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const summary =
    fails === 0 && warns === 0
      ? 'Tudo certo.'
      : `${plural(fails, 'problema', 'problemas')}, ${plural(warns, 'aviso', 'avisos')}.`;
  return `${lines.join('\n')}\n\n${summary}\n`;
}
