/**
 * `npm run terminal -- <command>`: a manager enrolls and revokes terminals on the server.
 *
 *   add --role caixa|gerente|quiosque|rede --name "Caixa 1" [--loja ID]
 *                                                        prints a one-time code (15 minutes);
 *                                                        --loja: the store (default: the
 *                                                        default store); see npm run loja
 *   add --role integracao --name "PDV 1" --caixa ID       prints the PDV's bearer token, once
 *   list                                                 every terminal and its state
 *   revoke ID                                            refused from its next request on
 *   set ID --pdv-direto-quiosque KIOSK|nenhum            the counter's customer display: every
 *                                                        PDV sale goes straight to that kiosk
 *
 * Uses the same store as the app server: DATABASE_URL (PostgreSQL) or APP_DB (default
 * data/app.db).
 */
import { randomUUID } from 'node:crypto';
import { fail, isPositiveId, positiveId, readArgs, unknownCommand, usageError } from './cli-args';
import { defaultStoreId, openCliStore } from './cli-store';
import type { Actor } from './app/domain/audit';
import { createEnrollment, pairDisplayAs, revokeAs } from './app/domain/access/terminal-admin';
import type { TerminalAdminDeps } from './app/domain/access/terminal-admin';
import { addIntegration, listStores, listTerminals, pdvDisplays, ROLES } from './store';
import type { Role, Store } from './store';

const USAGE = `uso:
  npm run terminal -- add --role caixa|gerente|quiosque|rede --name "Caixa 1" [--loja ID]
  npm run terminal -- add --role integracao --name "PDV 1" --caixa ID
  npm run terminal -- list
  npm run terminal -- revoke ID
  npm run terminal -- set ID --pdv-direto-quiosque QUIOSQUE|nenhum`;

/** A terminal's id as typed (`revoke 3`, `set 3 …`), or a usage error naming what was typed. */
function terminalId(typed: string | undefined): number {
  return positiveId(typed, USAGE, {
    missing: 'falta o id do terminal',
    invalid: 'id de terminal inválido',
  });
}

function time(ms: number): string {
  return new Date(ms).toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' });
}

/**
 * The command line as the audit trail's actor: no terminal, and one id for this run (there is
 * no HTTP request), `cli-<uuid>`.
 */
const CLI_ACTOR: Actor = {
  terminalId: null,
  terminalName: null,
  role: null,
  requestId: `cli-${randomUUID()}`,
};

type Command =
  | { command: 'add'; role: Role; name: string; counterId: number | null; store: number | null }
  | { command: 'list' }
  | { command: 'revoke'; id: number }
  | { command: 'set'; id: number; kioskId: number | null };

/** The command line, checked before the store is opened: a usage error changes nothing. */
function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv;
  if (command === 'add') {
    const { values } = readArgs(
      rest,
      {
        role: { type: 'string' },
        name: { type: 'string' },
        caixa: { type: 'string' },
        loja: { type: 'string' },
      },
      USAGE,
    );
    const role = values.role as Role | undefined;
    if (role === undefined || !ROLES.includes(role)) {
      usageError(`--role deve ser um de: ${ROLES.join(', ')}`, USAGE);
    }
    const name = values.name?.trim() ?? '';
    if (name === '' || name.length > 60) usageError('--name deve ter de 1 a 60 caracteres', USAGE);
    const typedStore = values.loja?.trim();
    const store = typedStore === undefined ? null : Number(typedStore);
    if (typedStore !== undefined && !isPositiveId(typedStore)) {
      usageError(`--loja deve ser o id do estabelecimento da loja: ${typedStore}`, USAGE);
    }
    if (role !== 'integracao') {
      if (values.caixa !== undefined) usageError('--caixa só vale com --role integracao', USAGE);
      return { command, role, name, counterId: null, store };
    }
    if (store !== null) usageError('--loja não vale com --role integracao (é a do caixa)', USAGE);
    const counterId = Number(values.caixa);
    if (!Number.isSafeInteger(counterId) || counterId <= 0) {
      usageError(
        '--caixa deve ser o id do terminal de caixa do PDV (npm run terminal -- list)',
        USAGE,
      );
    }
    return { command, role, name, counterId, store: null };
  }
  if (command === 'list') {
    readArgs(rest, {}, USAGE);
    return { command };
  }
  if (command === 'revoke') {
    return {
      command,
      id: terminalId(readArgs(rest, {}, USAGE, { positionals: 1 }).positionals[0]),
    };
  }
  if (command === 'set') {
    const { values, positionals } = readArgs(
      rest,
      { 'pdv-direto-quiosque': { type: 'string' } },
      USAGE,
      { positionals: 1 },
    );
    const id = terminalId(positionals[0]);
    const target = values['pdv-direto-quiosque']?.trim();
    if (target === undefined) usageError('falta --pdv-direto-quiosque', USAGE);
    const kioskId = target === 'nenhum' ? null : Number(target);
    if (kioskId !== null && !isPositiveId(target)) {
      usageError('--pdv-direto-quiosque deve ser o id de um quiosque ou "nenhum"', USAGE);
    }
    return { command, id, kioskId };
  }
  return unknownCommand(command, USAGE);
}

/**
 * The store a new terminal goes to: null, the default store (no `--loja`, or its own id), or
 * one of `npm run loja -- list`.
 */
async function storeOf(
  store: Store,
  typed: number | null,
  defaultId: number,
): Promise<number | null> {
  if (typed === null || typed === defaultId) return null;
  const known = (await listStores(store)).some((s) => s.establishmentId === typed);
  if (!known) fail(`A loja ${typed} não existe. Veja as lojas com: npm run loja -- list`);
  return typed;
}

const storeName = (id: number | null) => (id === null ? 'loja padrão' : `loja ${id}`);

async function run(store: Store, cmd: Command, defaultId: number): Promise<void> {
  // The same changes the "Terminais" screen makes, audited as the command line.
  const admin: TerminalAdminDeps = { store, defaultId };
  if (cmd.command === 'add') {
    const { role, name, counterId } = cmd;
    const establishmentId = await storeOf(store, cmd.store, defaultId);
    if (counterId !== null) {
      let added: Awaited<ReturnType<typeof addIntegration>>;
      try {
        added = await addIntegration(store, { name, counterId });
      } catch {
        fail(`Terminal ${counterId} não é um caixa ativo (caixa ou gerente).`);
      }
      process.stdout.write(
        `Terminal ${added.terminal.id} "${added.terminal.name}" (integracao) criado, vendas para o caixa ${counterId}.\n` +
          `Token (mostrado só agora; guarde no PDV):\n${added.token}\n` +
          `Use: Authorization: Bearer <token>. Revogar: npm run terminal -- revoke ${added.terminal.id}\n`,
      );
      return;
    }
    const made = await createEnrollment(admin, CLI_ACTOR, { name, role, establishmentId });
    if (made.kind === 'key-reused') throw new Error('no idempotency key was sent');
    const { terminal, code, expiresAt } = made;
    process.stdout.write(
      `Terminal ${terminal.id} "${terminal.name}" (${terminal.role}) criado na ${storeName(establishmentId)}.\n` +
        `Código de registro: ${code}\n` +
        `Válido por 15 minutos (até ${time(expiresAt)}), uma única vez.\n` +
        `No navegador do terminal, na tela "Este terminal não está registrado", digite o código.\n`,
    );
    return;
  }
  if (cmd.command === 'list') {
    await list(store);
    return;
  }
  if (cmd.command === 'revoke') {
    const { id } = cmd;
    if ((await revokeAs(admin, CLI_ACTOR, id)) === 'not-found') fail(`Terminal ${id} não existe.`);
    process.stdout.write(`Terminal ${id} revogado: a próxima requisição dele será recusada.\n`);
    return;
  }
  await setDisplay(admin, cmd.id, cmd.kioskId);
}

async function list(store: Store): Promise<void> {
  const terminals = await listTerminals(store);
  if (terminals.length === 0) {
    process.stdout.write('Nenhum terminal.\n');
    return;
  }
  const displays = await pdvDisplays(store);
  for (const t of terminals) {
    const extra =
      t.status === 'aguardando código'
        ? ` (código válido até ${time(t.codeExpiresAt!)})`
        : t.status === 'revogado'
          ? ` em ${time(t.revokedAt!)}`
          : t.lastSeenAt !== null
            ? `, visto em ${time(t.lastSeenAt)}`
            : '';
    const display = displays.get(t.id);
    const pair =
      (t.counterId === null ? '' : ` (caixa ${t.counterId})`) +
      (display === undefined ? '' : ` (vendas do PDV direto ao quiosque ${display})`);
    // A chain's other store is said last (a single store's lines are as they were).
    const loja = t.establishmentId === null ? '' : `\t${storeName(t.establishmentId)}`;
    process.stdout.write(`${t.id}\t${t.role}\t${t.name}${pair}\t${t.status}${extra}${loja}\n`);
  }
}

/** `set ID --pdv-direto-quiosque KIOSK|nenhum`: the counter's customer display. */
async function setDisplay(
  admin: TerminalAdminDeps,
  id: number,
  kioskId: number | null,
): Promise<void> {
  const outcome = await pairDisplayAs(admin, CLI_ACTOR, id, kioskId);
  if (outcome === 'no-counter') fail(`Terminal ${id} não é um caixa ativo (caixa ou gerente).`);
  if (outcome === 'no-kiosk') fail(`Terminal ${String(kioskId)} não é um quiosque ativo.`);
  if (outcome === 'other-store') {
    fail(
      `O quiosque ${String(kioskId)} é de outra loja: o caixa ${id} só usa quiosques da loja dele.`,
    );
  }
  process.stdout.write(
    kioskId === null
      ? `Caixa ${id}: vendas do PDV aguardam no caixa (F7 passa uma ao quiosque).\n`
      : `Caixa ${id}: cada venda do PDV vai direto ao quiosque ${kioskId}; ` +
          `o cliente digita o celular lá, sem tecla no caixa.\n`,
  );
}

const cmd = parseCommand(process.argv.slice(2));
const defaultId = defaultStoreId();
const store = await openCliStore();
try {
  await run(store, cmd, defaultId);
} finally {
  await store.close();
}
