// Every command line of the project, spawned as npm runs it (node with tsx's loader on the
// real script): an option or an argument it does not take is one Portuguese line naming it,
// then the usage, exit status 2, no stack trace, and nothing changed (no store created).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runProcess } from './testing/processes';
import type { Ran } from './testing/processes';

const dir = mkdtempSync(path.join(tmpdir(), 'cli-'));
const appDb = path.join(dir, 'app.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run <script> -- …args`: the script's file and the arguments npm passes. */
function cli(script: string, args: string[]): Promise<Ran> {
  return runProcess({
    script: `server/${script}`,
    args,
    sources: true,
    env: {
      APP_DB: appDb,
      DATABASE_URL: '',
      PDV_URL: 'http://127.0.0.1:59999',
      PDV_TOKEN: 'pdv.1.x',
    },
  });
}

// [npm run …, the script and its arguments, the line that names what is wrong]
const CASES: [string, string, string[], string][] = [
  [
    'terminal',
    'terminal-cli.ts',
    ['add', '--role', 'caixa', '--filial', '2'],
    'opção desconhecida: --filial',
  ],
  [
    'terminal',
    'terminal-cli.ts',
    ['add', '--role', 'caixa', '--name', 'Caixa 1', '--loja', 'centro'],
    '--loja deve ser o id do estabelecimento da loja: centro',
  ],
  ['loja', 'loja-cli.ts', ['list', 'todas'], 'argumento inesperado: todas'],
  ['loja', 'loja-cli.ts', ['add', '7'], '--nome deve ter de 1 a 60 caracteres'],
  ['loja', 'loja-cli.ts', ['remove', 'x'], 'id de estabelecimento inválido: x'],
  ['terminal', 'terminal-cli.ts', ['list', 'todos'], 'argumento inesperado: todos'],
  ['terminal', 'terminal-cli.ts', ['revoke', 'abc'], 'id de terminal inválido: abc'],
  ['terminal', 'terminal-cli.ts', ['add', '--role', 'caixa', '--name'], 'falta o valor de --name'],
  ['pdv', 'pdv-cli.ts', ['venda', '45,90', '--loja', '2'], 'opção desconhecida: --loja'],
  ['pdv', 'pdv-cli.ts', ['estado', 'NFCE-1', '--cpf', '52998224725'], 'opção desconhecida: --cpf'],
  ['pdv', 'pdv-cli.ts', ['cancelar', 'NFCE-1', 'NFCE-2'], 'argumento inesperado: NFCE-2'],
  ['backup', 'backup-cli.ts', ['backup', '--force', 'copia.db'], 'opção desconhecida: --force'],
  ['restore', 'backup-cli.ts', ['restore', '--yes', 'copia.db'], 'opção desconhecida: --yes'],
  ['doctor', 'doctor-cli.ts', ['--verbose'], 'opção desconhecida: --verbose'],
  ['doctor', 'doctor-cli.ts', ['agora'], 'argumento inesperado: agora'],
];

describe('an unknown option or argument', { timeout: 60_000 }, () => {
  test('is one Portuguese line naming it, then the usage, exit 2, and nothing done', async () => {
    const runs = await Promise.all(CASES.map(([, script, args]) => cli(script, args)));
    const seen = CASES.map(([name, , args], i) => {
      const run = runs[i]!;
      const [first, second] = run.stderr.split('\n');
      return { command: `npm run ${name} -- ${args.join(' ')}`, first, second, code: run.code };
    });
    console.log(
      `CLIs: ${runs.length} wrong command lines, exit codes ${runs.map((r) => r.code).join(',')}`,
    );
    expect(seen).toEqual(
      CASES.map(([name, , args, line]) => ({
        command: `npm run ${name} -- ${args.join(' ')}`,
        first: line,
        second: 'uso:',
        code: 2,
      })),
    );
    for (const run of runs) {
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toMatch(/\n\s+at |Error|ERR_/);
      // Each usage line is the command's own: `npm run X -- …`.
      expect(
        run.stderr
          .split('\n')
          .slice(2)
          .filter(Boolean)
          .every((l) => /npm run /.test(l)),
      ).toBe(true);
    }
    // A usage error opens no store: none was created.
    expect(existsSync(appDb)).toBe(false);
  });

  test('--help prints the usage and exits 0', async () => {
    const run = await cli('terminal-cli.ts', ['--help']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^uso:\n {2}npm run terminal -- add/);
  });
});

test(
  'backup and restore answer in Portuguese, as the other commands do',
  { timeout: 60_000 },
  async () => {
    const missing = path.join(dir, 'nada.db');
    const backup = await cli('backup-cli.ts', ['backup', path.join(dir, 'copia.db')]);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toBe(`Cópia recusada: não há banco em ${appDb}\n`);
    const restore = await cli('backup-cli.ts', ['restore', missing]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toBe(`Restauração recusada: não há arquivo ${missing}\n`);
  },
);
