/**
 * `npm run terminal -- <command>`: a manager enrolls and revokes terminals on the server.
 *
 *   add --role caixa|gerente|quiosque --name "Caixa 1"   prints a one-time code (15 minutes)
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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { resolveAppDb } from './app/config';
import { createAuditTrail } from './app/domain/audit';
import type { Actor } from './app/domain/audit';
import {
  addIntegration,
  addTerminal,
  listTerminals,
  openStore,
  pdvDisplays,
  revokeTerminal,
  ROLES,
  setPdvDisplay,
} from './store';
import type { Role, Store } from './store';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `uso:
  npm run terminal -- add --role caixa|gerente|quiosque --name "Caixa 1"
  npm run terminal -- add --role integracao --name "PDV 1" --caixa ID
  npm run terminal -- list
  npm run terminal -- revoke ID
  npm run terminal -- set ID --pdv-direto-quiosque QUIOSQUE|nenhum`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
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

async function run(store: Store, argv: string[]): Promise<void> {
  const audit = createAuditTrail({ store });
  const [command, ...rest] = argv;
  if (command === 'add') {
    const { values } = parseArgs({
      args: rest,
      options: { role: { type: 'string' }, name: { type: 'string' }, caixa: { type: 'string' } },
      strict: true,
    });
    const role = values.role as Role | undefined;
    if (role === undefined || !ROLES.includes(role)) {
      fail(`--role deve ser um de: ${ROLES.join(', ')}\n${USAGE}`);
    }
    const name = values.name?.trim() ?? '';
    if (name === '' || name.length > 60) fail(`--name deve ter de 1 a 60 caracteres\n${USAGE}`);
    if (role === 'integracao') {
      const counterId = Number(values.caixa);
      if (!Number.isSafeInteger(counterId) || counterId <= 0) {
        fail(
          `--caixa deve ser o id do terminal de caixa do PDV (npm run terminal -- list)\n${USAGE}`,
        );
      }
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
    if (values.caixa !== undefined) fail(`--caixa só vale com --role integracao\n${USAGE}`);
    const { terminal, code, expiresAt } = await addTerminal(store, { name, role });
    await audit.recordOrThrow(CLI_ACTOR, 'terminal.criado', {
      terminal: { id: terminal.id, nome: terminal.name, papel: terminal.role },
    });
    process.stdout.write(
      `Terminal ${terminal.id} "${terminal.name}" (${terminal.role}) criado.\n` +
        `Código de registro: ${code}\n` +
        `Válido por 15 minutos (até ${time(expiresAt)}), uma única vez.\n` +
        `No navegador do terminal, na tela "Este terminal não está registrado", digite o código.\n`,
    );
    return;
  }
  if (command === 'list') {
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
      process.stdout.write(`${t.id}\t${t.role}\t${t.name}${pair}\t${t.status}${extra}\n`);
    }
    return;
  }
  if (command === 'revoke') {
    const id = Number(rest[0]);
    if (rest.length !== 1 || !Number.isSafeInteger(id) || id <= 0) fail(USAGE);
    const before = (await listTerminals(store)).find((t) => t.id === id);
    if (!(await revokeTerminal(store, id))) fail(`Terminal ${id} não existe.`);
    // A terminal revoked before stays as it was: nothing new to record.
    if (before?.revokedAt === null) {
      await audit.recordOrThrow(CLI_ACTOR, 'terminal.revogado', {
        terminal: { id, nome: before.name, papel: before.role },
      });
    }
    process.stdout.write(`Terminal ${id} revogado: a próxima requisição dele será recusada.\n`);
    return;
  }
  if (command === 'set') {
    await setDisplay(store, rest);
    return;
  }
  fail(USAGE);
}

/** `set ID --pdv-direto-quiosque KIOSK|nenhum`: the counter's customer display. */
async function setDisplay(store: Store, rest: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: rest,
    options: { 'pdv-direto-quiosque': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const id = Number(positionals[0]);
  const target = values['pdv-direto-quiosque']?.trim();
  if (positionals.length !== 1 || !Number.isSafeInteger(id) || id <= 0 || target === undefined) {
    fail(USAGE);
  }
  const off = target === 'nenhum';
  const kioskId = off ? null : Number(target);
  if (kioskId !== null && (!Number.isSafeInteger(kioskId) || kioskId <= 0)) {
    fail(`--pdv-direto-quiosque deve ser o id de um quiosque ou "nenhum"\n${USAGE}`);
  }
  const outcome = await setPdvDisplay(store, id, kioskId);
  if (outcome === 'no-counter') fail(`Terminal ${id} não é um caixa ativo (caixa ou gerente).`);
  if (outcome === 'no-kiosk') fail(`Terminal ${String(kioskId)} não é um quiosque ativo.`);
  process.stdout.write(
    off
      ? `Caixa ${id}: vendas do PDV aguardam no caixa (F7 passa uma ao quiosque).\n`
      : `Caixa ${id}: cada venda do PDV vai direto ao quiosque ${String(kioskId)}; ` +
          `o cliente digita o celular lá, sem tecla no caixa.\n`,
  );
}

const databaseUrl = process.env.DATABASE_URL?.trim() || null;
let store: Store;
try {
  store = await openStore({
    databaseUrl,
    sqlitePath: resolveAppDb(process.env.APP_DB?.trim() || null, root),
  });
} catch (err) {
  fail(
    `não foi possível abrir o banco do servidor: ${err instanceof Error ? err.message : String(err)}`,
  );
}
try {
  await run(store, process.argv.slice(2));
} finally {
  await store.close();
}
