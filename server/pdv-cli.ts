/**
 * `npm run pdv -- <command>`: plays the store's PDV against the app server, for demos and tests.
 *
 *   venda 45,90 [--cpf …] [--celular …] [--itens "Café:2:9,00;Pão:36,90"] [--id ID]
 *   estado ID [--aguardar segundos]
 *   cancelar ID
 *
 * The server is PDV_URL (default http://127.0.0.1:$PORT, 4173). The token is PDV_TOKEN; without
 * it, against a sandbox that enrolls browsers by itself (loopback), the command enrolls a demo
 * PDV in the store (APP_DB, as `npm run terminal`) paired with the counter browser seen last,
 * and keeps its token beside the store (`pdv-demo-token`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fail, readArgs, unknownCommand, usageError } from './cli-args';
import { appDbPath } from './cli-store';
import {
  addIntegration,
  integrationByToken,
  listTerminals,
  openStore,
  pairIntegration,
} from './store';

const USAGE = `uso:
  npm run pdv -- venda 45,90 [--cpf 52998224725] [--celular 11987654321] [--itens "Café:2:9,00;Pão:36,90"] [--id ID]
  npm run pdv -- estado ID [--aguardar 20]
  npm run pdv -- cancelar ID`;

/** `45,90` / `45.90` / `4590` (no separator: reais) → cents. */
function cents(text: string): number {
  const m = /^(\d{1,7})(?:[,.](\d{1,2}))?$/.exec(text.trim());
  if (m === null) usageError(`valor inválido: ${text} (ex.: 45,90)`, USAGE);
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

const brl = (c: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(c / 100);

/** `Café:2:9,00;Pão:36,90`: description, optional quantity, line total in reais. */
function items(text: string): { descricao: string; qtde?: number; valor: number }[] {
  return text
    .split(';')
    .filter((p) => p.trim() !== '')
    .map((part) => {
      const bits = part.split(':').map((b) => b.trim());
      if (bits.length === 2) return { descricao: bits[0]!, valor: cents(bits[1]!) };
      if (bits.length === 3) {
        return { descricao: bits[0]!, qtde: Number(bits[1]), valor: cents(bits[2]!) };
      }
      return usageError(`item inválido: ${part} (descrição:valor ou descrição:qtde:valor)`, USAGE);
    });
}

/** The name the sandbox gives a browser it enrolled by itself (domain/access/terminals.ts). */
const LOCAL_BROWSER = 'Navegador local (sandbox)';

const baseUrl =
  process.env.PDV_URL?.replace(/\/+$/, '') ?? `http://127.0.0.1:${process.env.PORT ?? '4173'}`;

/**
 * The demo PDV of a sandbox on loopback, paired with the counter browser seen last: only a
 * sandbox that enrolls browsers by itself has terminals named as `enrollLocal` names them, so
 * a live store never gets a demo token.
 */
async function demoToken(): Promise<string> {
  const appDb = appDbPath();
  const store = await openStore({
    databaseUrl: process.env.DATABASE_URL?.trim() || null,
    sqlitePath: appDb,
  });
  try {
    const counters = (await listTerminals(store))
      .filter((t) => t.name === LOCAL_BROWSER && t.status === 'ativo')
      .sort((a, b) => (b.lastSeenAt ?? 0) - (a.lastSeenAt ?? 0) || b.id - a.id);
    const counter = counters[0];
    if (counter === undefined) {
      fail(`Defina PDV_TOKEN, ou (sandbox) abra ${baseUrl} no navegador primeiro: o caixa.`);
    }
    const file = path.join(path.dirname(appDb), 'pdv-demo-token');
    const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    const pdv = kept === '' ? null : await integrationByToken(store, kept);
    if (pdv !== null) {
      if (pdv.counterId !== counter.id) await pairIntegration(store, pdv.id, counter.id);
      return kept;
    }
    const added = await addIntegration(store, {
      name: 'PDV demo (sandbox)',
      counterId: counter.id,
    });
    writeFileSync(file, `${added.token}\n`, { mode: 0o600 });
    return added.token;
  } finally {
    await store.close();
  }
}

interface Venda {
  id_venda: string;
  estado: string;
  valor_gasto: number;
  quantidade_itens: number;
  pontos: number | null;
  premios: { nome: string }[];
  cliente: { primeiro_nome: string | null; celular: string } | null;
  mensagem: string | null;
}

function show(status: number, body: { message?: string; data?: { venda?: Venda } }): void {
  const v = body.data?.venda;
  if (v === undefined) fail(`${status}: ${body.message ?? 'sem resposta'}`);
  const parts = [`Venda ${v.id_venda}`, v.estado, brl(v.valor_gasto)];
  if (v.quantidade_itens > 0) parts.push(`${v.quantidade_itens} itens`);
  process.stdout.write(`${parts.join(' · ')}\n`);
  if (v.pontos !== null) {
    const who = v.cliente ? ` (${v.cliente.primeiro_nome ?? 'cliente'} ${v.cliente.celular})` : '';
    process.stdout.write(`Você ganhou ${v.pontos} pontos${who}.\n`);
  }
  for (const p of v.premios) process.stdout.write(`Prêmio: ${p.nome}\n`);
  if (v.mensagem) process.stdout.write(`${v.mensagem}\n`);
  if (status >= 400) {
    process.stdout.write(`Recusada (${status}): ${body.message ?? ''}\n`);
    process.exitCode = 1;
  }
}

async function call(token: string, method: string, url: string, body?: unknown) {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    type Cause = { code?: string; message?: string; errors?: { code?: string }[] };
    const cause = (err as { cause?: Cause }).cause;
    const why = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? String(err);
    process.stderr.write(`Não foi possível falar com o servidor em ${baseUrl} (${why}).\n`);
    process.exit(1);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Parameters<typeof show>[1] };
  } catch {
    return { status: res.status, body: { message: text.slice(0, 200) } };
  }
}

const [command, ...rest] = process.argv.slice(2);
/** Each command's options; the one argument they all take (the amount, or the sale's id). */
const OPTIONS = {
  venda: {
    cpf: { type: 'string' },
    celular: { type: 'string' },
    itens: { type: 'string' },
    id: { type: 'string' },
  },
  estado: { aguardar: { type: 'string' } },
  cancelar: {},
} as const;
if (command !== 'venda' && command !== 'estado' && command !== 'cancelar') {
  unknownCommand(command, USAGE);
}
const { values, positionals } = readArgs(rest, OPTIONS[command], USAGE, { positionals: 1 });
if (positionals.length !== 1) {
  usageError(command === 'venda' ? 'falta o valor da venda' : 'falta o id da venda', USAGE);
}
const option = (name: string): string | undefined =>
  (values as Record<string, string | undefined>)[name];
const token = process.env.PDV_TOKEN?.trim() || (await demoToken());
const arg = positionals[0]!;
if (command === 'venda') {
  const phone = option('celular')?.replace(/\D/g, '');
  const itens = option('itens');
  const cpf = option('cpf');
  const r = await call(token, 'POST', '/api/integracao/vendas', {
    id_venda: option('id') ?? `demo-${Date.now().toString(36)}`,
    valor_gasto: cents(arg),
    ...(itens === undefined ? {} : { itens: items(itens) }),
    ...(cpf === undefined ? {} : { cpf }),
    ...(phone === undefined
      ? {}
      : { celular: phone.startsWith('55') ? `+${phone}` : `+55${phone}` }),
  });
  show(r.status, r.body);
} else if (command === 'estado') {
  const aguardar = option('aguardar');
  const wait = aguardar === undefined ? '' : `?aguardar=${Number(aguardar)}`;
  const r = await call(token, 'GET', `/api/integracao/vendas/${encodeURIComponent(arg)}${wait}`);
  show(r.status, r.body);
} else {
  const r = await call(token, 'POST', `/api/integracao/vendas/${encodeURIComponent(arg)}/cancelar`);
  show(r.status, r.body);
}
