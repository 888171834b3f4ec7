// The chain's command lines, spawned as npm runs them: `npm run loja` keeps a store's
// access-token sealed (never on the command line, in an answer or in the store's file), and
// `npm run terminal -- add --loja` creates terminals of a listed store only.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runProcess } from './testing/processes';

const dir = mkdtempSync(path.join(tmpdir(), 'loja-cli-'));
const appDb = path.join(dir, 'app.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'access-token-LOJA-7-5f0c2e';

/** `npm run <script> -- …args` with `stdin`; `establishment` undefined: no LOYALTY_ESTABLISHMENT_ID. */
function cli(script: string, args: string[], stdin = '', establishment: string | undefined = '1') {
  return runProcess({
    script: `server/${script}`,
    args,
    sources: true,
    stdin,
    env: { APP_DB: appDb, DATABASE_URL: '', LOYALTY_ESTABLISHMENT_ID: establishment },
  });
}

test(
  'a store is added with its token sealed, and terminals are created in listed stores only',
  { timeout: 90_000 },
  async () => {
    const unknown = await cli('terminal-cli.ts', [
      'add',
      '--role',
      'caixa',
      '--name',
      'Caixa 7',
      '--loja',
      '7',
    ]);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toBe('A loja 7 não existe. Veja as lojas com: npm run loja -- list\n');

    const added = await cli('loja-cli.ts', ['add', '7', '--nome', 'Loja Sete'], `${TOKEN}\n`);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Loja 7 "Loja Sete" adicionada');
    const again = await cli('loja-cli.ts', ['add', '7', '--nome', 'Loja Sete'], `${TOKEN}\n`);
    expect(again.code).toBe(2);
    const defaultStore = await cli('loja-cli.ts', ['add', '1', '--nome', 'Padrão'], `${TOKEN}\n`);
    expect(defaultStore.code).toBe(2);
    expect(defaultStore.stderr).toContain('é a padrão');

    const list = await cli('loja-cli.ts', ['list']);
    expect(list.stdout).toBe('1\tloja padrão (LOYALTY_ESTABLISHMENT_ID)\n7\tLoja Sete\n');

    const terminal = await cli('terminal-cli.ts', [
      'add',
      '--role',
      'rede',
      '--name',
      'Rede',
      '--loja',
      '7',
    ]);
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toContain('(rede) criado na loja 7');
    const terminals = await cli('terminal-cli.ts', ['list']);
    expect(terminals.stdout).toMatch(/\trede\tRede\t.*\tloja 7$/m);

    // Nothing printed the token; the store's files do not hold it in plaintext.
    for (const run of [added, again, defaultStore, list, terminal, terminals]) {
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
    }
    const bytes = Buffer.concat(
      [appDb, `${appDb}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
    );
    expect(bytes.includes(Buffer.from('Loja Sete'))).toBe(true);
    expect(bytes.includes(Buffer.from(TOKEN))).toBe(false);

    const removed = await cli('loja-cli.ts', ['remove', '7']);
    expect(removed.code).toBe(0);
    expect((await cli('loja-cli.ts', ['list'])).stdout).not.toContain('Loja Sete');
    console.log(`[loja cli] ${bytes.length} bytes of the store's files: the token 0 times`);
  },
);

test(
  'the default store is taken by its own id, as the server reads it (1 when it is not set)',
  { timeout: 90_000 },
  async () => {
    const add = (loja: string, establishment?: string) =>
      cli(
        'terminal-cli.ts',
        ['add', '--role', 'caixa', '--name', `Caixa padrão ${loja}`, '--loja', loja],
        '',
        establishment,
      );
    // No LOYALTY_ESTABLISHMENT_ID: the server serves establishment 1 as its default store.
    const list = await cli('loja-cli.ts', ['list'], '', undefined);
    expect(list).toMatchObject({ code: 0 });
    expect(list.stdout.split('\n')[0]).toBe('1\tloja padrão (LOYALTY_ESTABLISHMENT_ID)');
    const byId = await add('1', undefined);
    expect(byId.stderr).toBe('');
    expect(byId).toMatchObject({ code: 0 });
    expect(byId.stdout).toMatch(/^Terminal \d+ "Caixa padrão 1" \(caixa\) criado na loja padrão\./);

    // Another default store: its id is the default one, 1 is then a store like any other.
    const five = await add('5', '5');
    expect(five).toMatchObject({ code: 0 });
    expect(five.stdout).toContain('criado na loja padrão');
    expect((await cli('loja-cli.ts', ['list'], '', '5')).stdout.split('\n')[0]).toBe(
      '5\tloja padrão (LOYALTY_ESTABLISHMENT_ID)',
    );
    const one = await add('1', '5');
    expect(one).toMatchObject({ code: 2, stdout: '' });
    expect(one.stderr).toBe('A loja 1 não existe. Veja as lojas com: npm run loja -- list\n');
    console.log(
      '[loja cli] --loja 1 with no LOYALTY_ESTABLISHMENT_ID: accepted; with 5: --loja 5 accepted, 1 refused',
    );
  },
);
