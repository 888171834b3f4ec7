// The hand-over route (resgatar-premio) of the app server, over the embedded sandbox: roles,
// the service's answers relayed, the ledger and /api/config's `entregaPremios`.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import type { Role } from '../../store';
import { makeApp } from '../../testing/app-harness';
import { embeddedPostings, postJson } from '../testing/embedded-postings';
import { Ledger } from '#contract/api/postings';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const CHAVEIRO = 3; // Maria (1) has one pending (seed)
const REFRIGERANTE = 2; // Maria's is expired

async function setup(
  as: Role = 'caixa',
  options: { rewardHandover?: boolean; journal?: boolean } = {},
) {
  const { upstream, service } = await embeddedPostings(closers, {
    rewardHandover: options.rewardHandover,
  });
  const { app, ready } = makeApp(
    { ...upstream, postings: options.journal === false ? undefined : service },
    as,
  );
  closers.push(async () => (await ready).store.close());
  const handOver = (idPremio: number, senha = '1234', key: string = randomUUID()) =>
    postJson(
      app,
      '/api/v4/estabelecimentos/1/fidelidade/resgatar-premio',
      { id_premio: idPremio, id_cliente: 1, senha_atendente: senha },
      { 'idempotency-key': key },
    );
  const config = async () =>
    ((await (await app.request('/api/config')).json()) as { data: { entregaPremios?: boolean } })
      .data.entregaPremios;
  return { app, handOver, config };
}

describe('resgatar-premio through the journal', () => {
  test("a caixa hands a pending reward over: the service's answer, and the ledger lists it", async () => {
    const { app, handOver, config } = await setup('caixa');
    expect(await config()).toBe(true);
    const key = randomUUID();
    const res = await handOver(CHAVEIRO, '1234', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { message: string; data: { id_premio_cliente: number } };
    expect(body.message).toBe('Prêmio resgatado com sucesso.');
    const again = await handOver(CHAVEIRO, '1234', key);
    expect(again.status).toBe(200);
    const now = Date.now();
    const ledger = await app.request(
      `/api/lancamentos?de=${new Date(now - 60_000).toISOString()}&ate=${new Date(now + 60_000).toISOString()}`,
    );
    const data = Ledger.parse(((await ledger.json()) as { data: unknown }).data);
    expect(data.lancamentos).toHaveLength(1);
    expect(data.lancamentos[0]).toMatchObject({
      chave: key,
      tipo: 'premio',
      estado: 'lançado',
      valor_gasto: 0,
      pontos: null,
      celular: '+5511987654321',
      nome: 'Maria da Silva',
      premio: { id_premio: CHAVEIRO, id_premio_cliente: body.data.id_premio_cliente },
    });
    // Handed over once: the next one is the service's refusal, told as already handed over.
    const second = await handOver(CHAVEIRO);
    expect(second.status).toBe(422);
    expect(((await second.json()) as { message: string }).message).toBe(
      'Este prêmio já foi entregue.',
    );
  });

  test("an expired reward, a wrong password: the service's refusals", async () => {
    const { handOver } = await setup('gerente');
    const expired = await handOver(REFRIGERANTE);
    expect(expired.status).toBe(422);
    expect(((await expired.json()) as { message: string }).message).toBe(
      'O cliente não tem este prêmio para resgatar',
    );
    const wrong = await handOver(CHAVEIRO, '0000');
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(
      'senha_atendente',
    );
  });

  test('a kiosk may not hand a reward over (403); nor without a key (422)', async () => {
    const kiosk = await setup('quiosque');
    expect((await kiosk.handOver(CHAVEIRO)).status).toBe(403);
    const { app } = await setup('caixa');
    const res = await app.request('/api/v4/estabelecimentos/1/fidelidade/resgatar-premio', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id_premio: CHAVEIRO, id_cliente: 1, senha_atendente: '1234' }),
    });
    expect(res.status).toBe(422);
  });

  test('REWARD_HANDOVER=0, or no journal: entregaPremios false and the route says so (404)', async () => {
    for (const options of [{ rewardHandover: false }, { journal: false }]) {
      const { handOver, config } = await setup('caixa', options);
      expect(await config()).toBe(false);
      const res = await handOver(CHAVEIRO);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { data: unknown }).data).toEqual({
        entrega_indisponivel: true,
      });
    }
  });
});
