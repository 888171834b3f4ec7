// `npm run doctor` run for real (the CLI as a process) against a sandbox process standing in
// for the live service: a good configuration passes; a wrong token shows the service's 401, an
// unreachable service, an unreachable PostgreSQL and a malformed variable each fail with what
// to fix. The clock comparison runs in-process with a service whose clock is 5 minutes ahead.
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { migrations } from '../store/migrations';
import { APP_SECRET_FOR_TESTS } from '../testing/processes';
import { sandboxProcess } from '../testing/sandbox-process';
import { doctorCli, root, unsupportedSystemNode } from '../testing/spawn';
import { formatChecks, runDoctor } from './doctor';
import { readEngines } from './runtime';

const sandbox = sandboxProcess('doctor');
const { dir } = sandbox;

/** A 127.0.0.1 port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Live mode against the sandbox process with establishment 1's demo tokens. */
function live(name: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    LOYALTY_BASE_URL: sandbox.url,
    LOYALTY_APP_TOKEN: 'demo-app-token',
    LOYALTY_ACCESS_TOKEN: 'demo-access-token-1',
    LOYALTY_ESTABLISHMENT_ID: '1',
    APP_SECRET: APP_SECRET_FOR_TESTS,
    APP_DB: path.join(dir, name, 'app.db'),
    BACKUP_DIR: path.join(dir, name, 'backups'),
    ...env,
  };
}

/** The checklist's line for `title`, e.g. "✗ Serviço de fidelidade: …". */
function line(stdout: string, title: string): string {
  return stdout.split('\n').find((l) => l.slice(2).startsWith(`${title}:`)) ?? '';
}

describe('npm run doctor', () => {
  test('a good live configuration: every item ✓ and exit 0', async () => {
    const r = await doctorCli(live('good'));
    console.log(r.stdout);
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'Node.js')).toBe(
      `✓ Node.js: ${process.version} em ${process.execPath} (o projeto pede ${readEngines(root)}).`,
    );
    expect(line(r.stdout, 'Configuração')).toMatch(
      /^✓ Configuração: serviço real \(http:\/\/127\.0\.0\.1:\d+\), estabelecimento 1;/,
    );
    expect(line(r.stdout, 'Banco do servidor')).toMatch(
      /^✓ Banco do servidor: SQLite em .* será criado/,
    );
    expect(line(r.stdout, 'Serviço de fidelidade')).toMatch(
      /^✓ Serviço de fidelidade: .* aceitou os tokens do estabelecimento 1/,
    );
    expect(line(r.stdout, 'Relógio')).toMatch(
      /^✓ Relógio: a diferença para o relógio do serviço é de/,
    );
    expect(line(r.stdout, 'Backups')).toMatch(
      /^✓ Backups: BACKUP_DIR=.*a cada 24 h, mantém 7; nenhum ainda/,
    );
    expect(r.stdout).toContain('Tudo certo.');
    expect(r.stdout).not.toContain('demo-access-token-1');
  });

  test('a wrong token: the service’s 401 is shown with what to fix, exit 1', async () => {
    const r = await doctorCli(live('token', { LOYALTY_ACCESS_TOKEN: 'not-the-right-token' }));
    console.log(r.stdout);
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'Serviço de fidelidade')).toBe(
      '✗ Serviço de fidelidade: o serviço recusou os tokens: 401 «Acesso não autorizado. Confira o app-token e o access-token.».',
    );
    expect(r.stdout).toMatch(/Como resolver: Confira LOYALTY_APP_TOKEN e LOYALTY_ACCESS_TOKEN/);
    expect(r.stdout).not.toContain('not-the-right-token');
    expect(r.stdout).toContain('1 problema, 0 avisos.');
  });

  test('an unreachable service: named with the reason, the clock not compared, exit 1', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await doctorCli(live('unreachable', { LOYALTY_BASE_URL: url }));
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'Serviço de fidelidade')).toBe(
      `✗ Serviço de fidelidade: ${url} não respondeu (ECONNREFUSED).`,
    );
    expect(r.stdout).toMatch(/Como resolver: Confira LOYALTY_BASE_URL/);
    expect(line(r.stdout, 'Relógio')).toBe('– Relógio: não comparado: o serviço não respondeu.');
  });

  test('a DATABASE_URL nothing answers: the store fails, its password never shown, exit 1', async () => {
    const port = await closedPort();
    const r = await doctorCli(
      live('pg', {
        DATABASE_URL: `postgres://pdv:s3cret-password@127.0.0.1:${port}/pdv`,
        BACKUP_DIR: '',
      }),
    );
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'Banco do servidor')).toBe(
      `✗ Banco do servidor: PostgreSQL em 127.0.0.1:${port}/pdv não respondeu: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(r.stdout).toMatch(/Como resolver: Confira DATABASE_URL/);
    expect(line(r.stdout, 'Backups')).toMatch(/^– Backups: PostgreSQL: .*pg_dump/);
    expect(r.stdout).not.toContain('s3cret-password');
  });

  test('a malformed variable: the configuration fails with it named, exit 1', async () => {
    const r = await doctorCli(live('bad', { DATABASE_URL: 'mysql://db/pdv', BACKUP_DIR: '' }));
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'Configuração')).toBe(
      '✗ Configuração: DATABASE_URL must be a postgres:// URL',
    );
    expect(r.stdout).toMatch(/Como resolver: Corrija as variáveis citadas/);
  });

  test('a store left at an older version: its pending migrations are named, exit 0', async () => {
    const appDb = path.join(dir, 'older', 'app.db');
    rmSync(path.dirname(appDb), { recursive: true, force: true });
    mkdirSync(path.dirname(appDb), { recursive: true });
    const all = Object.keys(migrations('sqlite'));
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(appDb) }),
    });
    const { error } = await new Migrator({
      db,
      provider: { getMigrations: async () => migrations('sqlite') },
    }).migrateTo(all[2]!);
    await db.destroy();
    expect(error).toBeUndefined();
    const r = await doctorCli(live('older'));
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'Banco do servidor')).toBe(
      `! Banco do servidor: SQLite em ${appDb} responde; ${all.length - 3} migração(ões) pendente(s) (${all.slice(3).join(', ')}): o servidor as aplica ao iniciar.`,
    );
    expect(r.stdout).toMatch(/Como resolver: Normal numa atualização: faça um backup antes/);
  });

  test('sandbox mode (no LOYALTY_BASE_URL) passes as it is', async () => {
    const r = await doctorCli({
      APP_DB: path.join(dir, 'sandbox-mode', 'app.db'),
      SANDBOX_DB: path.join(dir, 'sandbox-mode', 'sandbox.db'),
    });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'Configuração')).toMatch(
      /^✓ Configuração: sandbox embutido, estabelecimento 1;/,
    );
    expect(line(r.stdout, 'Serviço de fidelidade')).toMatch(
      /^✓ Serviço de fidelidade: sandbox embutido: .* será criado/,
    );
    expect(line(r.stdout, 'Relógio')).toMatch(/^– Relógio: sandbox embutido/);
  });
});

describe('the clock', () => {
  test('a service 5 minutes ahead: a warning saying this clock is behind, not a failure', async () => {
    const checks = await runDoctor({
      root,
      env: live('clock'),
      fetcher: {
        fetch: () =>
          new Response('{"success":true,"message":"ok","data":{"data":[]}}', {
            headers: { date: new Date(Date.now() + 5 * 60_000).toUTCString() },
          }),
      },
    });
    const text = formatChecks(checks);
    expect(line(text, 'Relógio')).toMatch(
      /^! Relógio: o relógio desta máquina está 5 min atrasado em relação ao do serviço \(tolerância 60 s\)/,
    );
    expect(text).toMatch(/Como resolver: Ative a sincronização de horário/);
    expect(checks.some((c) => c.status === 'fail')).toBe(false);
  });
});

describe('the Node.js running it', () => {
  test('an unsupported one: a warning saying how to run the supported one; SQLite left closed', async () => {
    const checks = await runDoctor({
      root,
      env: { APP_DB: path.join(dir, 'old-node', 'app.db'), SANDBOX_DB: path.join(dir, 'x.db') },
      runtime: { version: 'v20.20.2', execPath: '/usr/bin/node' },
    });
    const text = formatChecks(checks);
    expect(line(text, 'Node.js')).toBe(
      `! Node.js: v20.20.2 em /usr/bin/node: versão não suportada (o projeto pede ${readEngines(root)}); os arquivos SQLite não foram abertos nela.`,
    );
    expect(text).toMatch(/Como resolver: Rode pelo npm .* node_modules\/\.bin\/node/);
    expect(line(text, 'Banco do servidor')).toBe(
      '– Banco do servidor: não verificado nesta versão do Node.js (veja acima).',
    );
    expect(checks.some((c) => c.status === 'fail')).toBe(false);
    expect(text).toContain('0 problemas, 1 aviso.');
  });

  // For real: the machine's own Node.js, when it is one the project does not support (Node.js
  // 20 on CI's machine). Loading better-sqlite3 13 there would crash it; the doctor does not.
  const system = unsupportedSystemNode();
  test.skipIf(system === null)(
    `the machine's own unsupported Node.js (${system?.version ?? 'none here'}) runs it: a warning, exit 0`,
    async () => {
      const r = await doctorCli(
        {
          APP_DB: path.join(dir, 'system-node', 'app.db'),
          SANDBOX_DB: path.join(dir, 'sandbox.db'),
        },
        system!.path,
      );
      console.log(r.stdout);
      expect(r.code).toBe(0);
      expect(line(r.stdout, 'Node.js')).toBe(
        `! Node.js: ${system!.version} em ${system!.path}: versão não suportada (o projeto pede ${readEngines(root)}); os arquivos SQLite não foram abertos nela.`,
      );
      expect(r.stdout).toContain('0 problemas, 1 aviso.');
    },
  );
});
