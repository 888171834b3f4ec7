/**
 * `npm run loja -- <command>`: the stores a chain's deployment serves besides its default one
 * (LOYALTY_ESTABLISHMENT_ID with LOYALTY_ACCESS_TOKEN, as before).
 *
 *   add ID --nome "Loja Centro"     the store's access-token is read from standard input
 *   list                            every store (never a token)
 *   token ID                        replaces a store's access-token (read from standard input)
 *   remove ID                       the store is no longer served (its records stay)
 *
 * The token is sealed with APP_SECRET (the sandbox's `app-secret` file without it) before it
 * is written: never on the command line (other users see it in `ps`), never in plaintext in
 * the store. Running servers serve a new store within seconds, with no restart.
 */
import { createInterface } from 'node:readline';
import {
  addChainStore,
  removeChainStore,
  setChainStoreToken,
  validStoreName,
  validToken,
} from './app/domain/stores';
import type { StoreChange } from './app/domain/stores';
import { fail, positiveId, readArgs, unknownCommand, usageError } from './cli-args';
import { appDbPath, defaultStoreId, openCliStore } from './cli-store';
import { appSecretFor } from './ops/app-secret';
import { listStores } from './store';
import type { Store } from './store';

const USAGE = `uso:
  npm run loja -- add ID --nome "Loja Centro"   (o access-token da loja pela entrada padrão)
  npm run loja -- list
  npm run loja -- token ID                      (o novo access-token pela entrada padrão)
  npm run loja -- remove ID`;

function storeId(typed: string | undefined): number {
  return positiveId(typed, USAGE, {
    missing: 'falta o id do estabelecimento da loja',
    invalid: 'id de estabelecimento inválido',
  });
}

type Command =
  | { command: 'add'; id: number; name: string }
  | { command: 'list' }
  | { command: 'token'; id: number }
  | { command: 'remove'; id: number };

function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv;
  if (command === 'add') {
    const { values, positionals } = readArgs(rest, { nome: { type: 'string' } }, USAGE, {
      positionals: 1,
    });
    const id = storeId(positionals[0]);
    const name = values.nome?.trim() ?? '';
    if (!validStoreName(name)) usageError('--nome deve ter de 1 a 60 caracteres', USAGE);
    return { command, id, name };
  }
  if (command === 'list') {
    readArgs(rest, {}, USAGE);
    return { command };
  }
  if (command === 'token' || command === 'remove') {
    return { command, id: storeId(readArgs(rest, {}, USAGE, { positionals: 1 }).positionals[0]) };
  }
  return unknownCommand(command, USAGE);
}

/** One line from standard input (a pipe, or typed after a prompt). */
async function readToken(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('access-token da loja: ');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    const token = line.trim();
    if (!validToken(token)) fail('access-token inválido (sem espaços, até 512 caracteres).');
    return token;
  }
  return fail('falta o access-token pela entrada padrão.');
}

function refused(change: StoreChange, id: number): void {
  if (change === 'default') {
    fail(
      `A loja ${id} é a padrão (LOYALTY_ESTABLISHMENT_ID): o token dela vem de LOYALTY_ACCESS_TOKEN.`,
    );
  }
  if (change === 'exists')
    fail(`A loja ${id} já existe (npm run loja -- token ${id} troca o token).`);
  if (change === 'unknown') fail(`A loja ${id} não existe (npm run loja -- list).`);
}

async function run(store: Store, cmd: Command, defaultId: number, secret: () => string) {
  if (cmd.command === 'list') {
    process.stdout.write(`${defaultId}\tloja padrão (LOYALTY_ESTABLISHMENT_ID)\n`);
    for (const s of await listStores(store)) {
      process.stdout.write(`${s.establishmentId}\t${s.name}\n`);
    }
    return;
  }
  if (cmd.command === 'remove') {
    refused(await removeChainStore(store, defaultId, cmd.id), cmd.id);
    process.stdout.write(
      `Loja ${cmd.id} removida: os servidores deixam de atendê-la em segundos.\n`,
    );
    return;
  }
  if (cmd.id === defaultId) refused('default', cmd.id);
  const token = await readToken();
  if (cmd.command === 'add') {
    refused(
      await addChainStore(store, secret(), defaultId, {
        establishmentId: cmd.id,
        name: cmd.name,
        accessToken: token,
      }),
      cmd.id,
    );
    process.stdout.write(
      `Loja ${cmd.id} "${cmd.name}" adicionada (token guardado cifrado). ` +
        `Terminais: npm run terminal -- add --role caixa --name "Caixa 1" --loja ${cmd.id}\n`,
    );
    return;
  }
  refused(await setChainStoreToken(store, secret(), defaultId, cmd.id, token), cmd.id);
  process.stdout.write(`Token da loja ${cmd.id} trocado: vale em segundos, sem reiniciar.\n`);
}

const cmd = parseCommand(process.argv.slice(2));
const defaultId = defaultStoreId();
const appDb = appDbPath();
const appSecret = process.env.APP_SECRET?.trim() || null;
if (appSecret !== null && appSecret.length < 32)
  fail('APP_SECRET deve ter ao menos 32 caracteres.');
const store = await openCliStore();
try {
  await run(store, cmd, defaultId, () => appSecretFor(appSecret, appDb));
} finally {
  await store.close();
}
