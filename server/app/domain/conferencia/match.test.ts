import { expect, test } from 'vitest';
import type { PostedEntry } from '../../../store';
import { creditsOf, matchCustomer, serviceInstant } from './match';

/** 2026-11-22 10:00:00 in São Paulo. */
const T = Date.UTC(2026, 10, 22, 13, 0, 0);
const day = { from: Date.UTC(2026, 10, 22, 3), to: Date.UTC(2026, 10, 23, 3) };
const who = { celular: '+5511987654321', idCliente: 7, nome: 'Maria' };
const sp = (ms: number) =>
  new Date(ms - 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

function entry(key: string, at: number, points: number | null): PostedEntry {
  return {
    key,
    customerKey: who.celular,
    customerName: 'Maria',
    terminalId: '1',
    amount: (points ?? 1) * 100,
    points,
    createdAt: at,
    sentAt: at,
    endedAt: at + 300,
    settledAt: at + 400,
    answerBody: null,
    snapshot: null,
  };
}
const history = (...cs: [number, number][]) =>
  creditsOf({
    carteira: {
      historico: cs.map(([at, pontos], i) => ({
        id_cartela_cliente: i + 1,
        pontos,
        data: sp(at),
        tipo: 'credito',
        data_validade: '2027-11-30',
      })),
    },
  });
const kinds = (r: ReturnType<typeof matchCustomer>) => r.findings.map((f) => f.tipo);

test('the service’s São Paulo timestamps are read as instants', () => {
  expect(serviceInstant('2026-11-22 10:00:00')).toBe(T);
  expect(serviceInstant('22/11/2026')).toBeNull();
});

test('a credit within two minutes of the sending with the same points confirms it', () => {
  const r = matchCustomer(who, [entry('a', T, 12)], history([T + 90_000, 12]), day);
  expect(r).toEqual({ confirmed: 1, findings: [] });
  const late = matchCustomer(who, [entry('a', T, 12)], history([T + 3 * 60_000, 12]), day);
  expect(kinds(late)).toEqual(['ausente', 'nao_lancado_por_nos']);
});

test('two sales a minute apart with their two credits: both confirmed, no double', () => {
  const r = matchCustomer(
    who,
    [entry('a', T, 12), entry('b', T + 60_000, 12)],
    history([T, 12], [T + 60_000, 12]),
    day,
  );
  expect(r).toEqual({ confirmed: 2, findings: [] });
});

test('other points, a second credit of one sale, a credit of no sale of ours', () => {
  const r = matchCustomer(
    who,
    [entry('a', T, 12), entry('b', T + 3_600_000, 30)],
    history([T, 12], [T + 1_000, 12], [T + 3_600_000, 31], [T + 7_200_000, 5]),
    day,
  );
  expect(r.confirmed).toBe(1);
  expect(kinds(r)).toEqual(['pontos_divergentes', 'duplicado', 'nao_lancado_por_nos']);
  expect(r.findings[0]).toMatchObject({
    lancamento: { chave: 'b', pontos: 30 },
    servico: { pontos: 31 },
  });
  expect(r.findings[1]).toMatchObject({
    lancamento: { chave: 'a' },
    servico: { id_cartela_cliente: 2 },
  });
});
