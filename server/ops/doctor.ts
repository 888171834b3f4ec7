/**
 * `npm run doctor`: what a store's IT runs before starting the server, or when it misbehaves.
 * It reads the configuration as the server would, looks at the store and its migrations without
 * changing them, reaches the service with the tokens (one harmless read: a page of one reward),
 * compares the service's clock with this machine's, and looks at the backups. Each item says
 * what it found and, when something is wrong, how to fix it. It changes nothing and may run
 * beside a running server.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { readConfig, resolveAppDb } from '../app/config';
import type { Config } from '../app/config';
import { createUpstreamClient } from '../app/upstream/client';
import type { Fetcher } from '../app/upstream/client';
import { inspectStore } from '../store';
import { newestScheduledBackup } from './backup';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';

export interface Check {
  title: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it (for `warn` and `fail`). */
  fix?: string;
}

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
}

const SYMBOL: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗', info: '–' };

/** "40 ms", "1,5 s", "3 min", "2 h": a duration for a person. */
function duration(ms: number): string {
  const s = Math.abs(ms) / 1000;
  if (s < 1) return `${Math.round(Math.abs(ms))} ms`;
  if (s < 90) return `${s.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} h`;
}

/** Where a PostgreSQL URL points, without its user and password. */
function postgresPlace(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL em ${u.host}${u.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
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

/** The service's own words from an error answer (`message`), or the start of its text. */
async function serviceMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  let message: unknown = null;
  try {
    message = (JSON.parse(text) as { message?: unknown }).message;
  } catch {
    message = null;
  }
  const said = (typeof message === 'string' ? message : text).replace(/\s+/g, ' ').trim();
  return said === '' ? '' : ` «${said.slice(0, 200)}»`;
}

/** Why a fetch got no answer: the cause's code (ECONNREFUSED, ENOTFOUND…) or message. */
function noAnswer(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `não respondeu em ${duration(timeoutMs)}`;
  }
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown }) : null;
  const why =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string' && cause.message !== ''
        ? cause.message
        : err instanceof Error
          ? err.message
          : String(err);
  return `não respondeu (${why})`;
}

interface Reached {
  service: Check;
  /** The service's clock minus ours at the moment it answered (ms), or why it is unknown. */
  clock: { skewMs: number } | { unknown: string };
}

const TOKENS_FIX =
  'Confira LOYALTY_APP_TOKEN e LOYALTY_ACCESS_TOKEN (sem espaços, do ambiente certo) e se o access-token é do estabelecimento LOYALTY_ESTABLISHMENT_ID.';

/** Reads one page of one reward through the service's client, as the server would. */
async function reachService(
  config: Config & { server: { mode: 'live' } },
  o: Required<Pick<DoctorOptions, 'now' | 'timeoutMs'>> & { fetcher: Fetcher },
): Promise<Reached> {
  const title = 'Serviço de fidelidade';
  const s = config.server;
  const client = createUpstreamClient({
    fetcher: o.fetcher,
    baseUrl: s.baseUrl,
    appToken: s.appToken,
    accessToken: s.accessToken,
    establishmentId: s.establishmentId,
  });
  const sent = o.now();
  let res: Response;
  try {
    res = await client.call(
      'recompensas',
      { itens_por_pagina: '1' },
      AbortSignal.timeout(o.timeoutMs),
    );
  } catch (err) {
    return {
      service: {
        title,
        status: 'fail',
        detail: `${s.baseUrl} ${noAnswer(err, o.timeoutMs)}.`,
        fix: 'Confira LOYALTY_BASE_URL, o DNS desta máquina e se o firewall ou um proxy liberam a saída HTTPS para o serviço.',
      },
      clock: { unknown: 'o serviço não respondeu' },
    };
  }
  const received = o.now();
  const date = Date.parse(res.headers.get('date') ?? '');
  const clock = Number.isNaN(date)
    ? { unknown: 'o serviço não mandou o cabeçalho Date' }
    : { skewMs: date - (sent + received) / 2 };
  const took = duration(received - sent);
  const status = res.status;
  const said = status >= 200 && status < 300 ? '' : await serviceMessage(res);
  const answer = (c: Omit<Check, 'title'>): Reached => ({ service: { title, ...c }, clock });
  if (status >= 200 && status < 300) {
    await res.body?.cancel().catch(() => undefined);
    return answer({
      status: 'ok',
      detail: `${s.baseUrl} aceitou os tokens do estabelecimento ${s.establishmentId} (uma leitura de recompensas, ${status} em ${took}).`,
    });
  }
  if (status === 401 || status === 403) {
    return answer({
      status: 'fail',
      detail: `o serviço recusou os tokens: ${status}${said}.`,
      fix: TOKENS_FIX,
    });
  }
  if (status === 404) {
    return answer({
      status: 'fail',
      detail: `o serviço respondeu 404${said} para o estabelecimento ${s.establishmentId}.`,
      fix: 'Confira LOYALTY_ESTABLISHMENT_ID e o caminho em LOYALTY_BASE_URL (só o endereço do serviço, sem /api/v4).',
    });
  }
  if (status >= 300 && status < 400) {
    return answer({
      status: 'fail',
      detail: `o serviço redireciona (${status}) para ${res.headers.get('location') ?? '?'}.`,
      fix: 'Use em LOYALTY_BASE_URL o endereço final do serviço (o servidor não segue redirecionamentos).',
    });
  }
  if (status >= 500) {
    return answer({
      status: 'warn',
      detail: `o serviço está com problemas: ${status}${said}. O servidor funciona assim mesmo e guarda as vendas até ele voltar (contingência).`,
      fix: 'Rode de novo mais tarde; se continuar, fale com o suporte do serviço.',
    });
  }
  return answer({
    status: 'fail',
    detail: `o serviço respondeu ${status}${said}.`,
    fix: TOKENS_FIX,
  });
}

/** The embedded sandbox: the same read through its in-process app, when its file exists. */
async function reachSandbox(
  config: Config & { server: { mode: 'sandbox' } },
  root: string,
): Promise<Check> {
  const title = 'Serviço de fidelidade';
  const s = config.server;
  const file =
    s.sandboxDb === null ? path.join(root, 'data', 'sandbox.db') : path.resolve(s.sandboxDb);
  if (!existsSync(file)) {
    return {
      title,
      status: 'ok',
      detail: `sandbox embutido: ${file} será criado com os dados de demonstração quando o servidor iniciar.`,
    };
  }
  const { openSandbox } = await import('../sandbox/sandbox');
  const { embeddedSandbox } = await import('../app/embedded');
  let sandbox: ReturnType<typeof openSandbox>;
  try {
    sandbox = openSandbox({ dbPath: file });
  } catch (err) {
    return {
      title,
      status: 'fail',
      detail: `o sandbox em ${file} não abriu: ${err instanceof Error ? err.message : String(err)}`,
      fix: 'Confira SANDBOX_DB e as permissões do arquivo; apagá-lo recria os dados de demonstração.',
    };
  }
  try {
    const upstream = embeddedSandbox(sandbox, s.establishmentId);
    if (upstream === null) {
      const ids = sandbox.establishments().map((e) => e.id);
      return {
        title,
        status: 'fail',
        detail: `o sandbox não tem o estabelecimento ${s.establishmentId}.`,
        fix: `Use em LOYALTY_ESTABLISHMENT_ID um destes: ${ids.join(', ')}.`,
      };
    }
    const res = await createUpstreamClient({
      fetcher: upstream.upstream,
      baseUrl: upstream.upstreamBaseUrl,
      appToken: upstream.appToken,
      accessToken: upstream.accessToken,
      establishmentId: upstream.establishmentId,
    }).call('recompensas', { itens_por_pagina: '1' }, AbortSignal.timeout(10_000));
    const said = res.ok ? '' : await serviceMessage(res);
    return res.ok
      ? {
          title,
          status: 'ok',
          detail: `sandbox embutido (${file}), estabelecimento ${s.establishmentId} "${upstream.establishmentName}" responde.`,
        }
      : {
          title,
          status: 'fail',
          detail: `o sandbox respondeu ${res.status}${said}.`,
          fix: 'Apague o arquivo do sandbox para recriar os dados de demonstração.',
        };
  } finally {
    sandbox.close();
  }
}

function checkClock(clock: Reached['clock'] | null, toleranceMs: number): Check {
  const title = 'Relógio';
  if (clock === null) {
    return { title, status: 'info', detail: 'sandbox embutido: usa o relógio desta máquina.' };
  }
  if ('unknown' in clock) {
    return { title, status: 'info', detail: `não comparado: ${clock.unknown}.` };
  }
  // The Date header has whole seconds: up to 1 s of the difference is its rounding.
  const skew = clock.skewMs;
  const beyond = Math.abs(skew) - 1000 > toleranceMs;
  const side = skew > 0 ? 'atrasado' : 'adiantado';
  return beyond
    ? {
        title,
        status: 'warn',
        detail: `o relógio desta máquina está ${duration(skew)} ${side} em relação ao do serviço (tolerância ${duration(toleranceMs)}): as horas das vendas e dos registros ficam erradas.`,
        fix: 'Ative a sincronização de horário (timedatectl set-ntp true, ou chrony/ntpd) e confira o fuso.',
      }
    : {
        title,
        status: 'ok',
        detail: `a diferença para o relógio do serviço é de ${duration(skew)} (tolerância ${duration(toleranceMs)}).`,
      };
}

function writable(dir: string): boolean {
  let d = dir;
  while (!existsSync(d)) d = path.dirname(d);
  try {
    accessSync(d, constants.W_OK);
    return true;
  } catch {
    return false;
  }
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
  if (!writable(b.dir)) {
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

/** Runs every check, in order: configuration, store, service, clock, backups. */
export async function runDoctor(o: DoctorOptions): Promise<Check[]> {
  const now = o.now ?? Date.now;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const read = readConfig(o.env);
  if (!read.ok) {
    return [
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
  const checks: Check[] = [
    { title: 'Configuração', status: 'ok', detail: describeConfig(config, appDb) },
    await checkStore(config, appDb, timeoutMs),
  ];
  const server = config.server;
  if (server.mode === 'live') {
    const fetcher = o.fetcher ?? { fetch: (req: Request) => fetch(req) };
    const reached = await reachService({ ...config, server }, { fetcher, now, timeoutMs });
    checks.push(reached.service, checkClock(reached.clock, o.clockToleranceMs ?? 60_000));
  } else {
    checks.push(await reachSandbox({ ...config, server }, o.root), checkClock(null, 0));
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
