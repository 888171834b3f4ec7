/* eslint-disable @typescript-eslint/no-explicit-any -- the tests read JSON answers loosely */
/**
 * The kiosk across two real app-server replicas (two `server/main.ts` processes) sharing one
 * PostgreSQL and one sandbox process: a sale staged through replica A is seen live (SSE) and
 * claimed by a kiosk on replica B; claims through both at once post once (counted in the
 * sandbox's own data); a cancel on A reaches B; a `kill -9` of A loses no staged sale.
 */
import { describe, expect, test } from 'vitest';
import type { Role } from '../store';
import { postgresSuite } from '../testing/pg-cluster';
import { freshPhone, sandboxPurchases } from '../testing/processes';
import type { RunningProcess } from '../testing/processes';
import { jsonWithout } from '../testing/app-harness';
import { enrolledTerminal, fetchAs, twoReplicas } from './testing/replicas';

const suite = postgresSuite();
const streams: AbortController[] = [];
const replicas = twoReplicas('kiosk-replicas', {
  skip: suite.skip,
  beforeStop: () => {
    for (const s of streams) s.abort();
  },
});

/** A terminal enrolled in the shared store; it can talk to any replica. */
async function terminal(role: Role, name: string) {
  const t = await enrolledTerminal(replicas.databaseUrl, role, name);
  const request = (replica: RunningProcess, p: string, init: RequestInit = {}) =>
    fetchAs(t.credential, replica, p, init);
  const post = async (replica: RunningProcess, p: string, body: unknown) => {
    const res = await request(replica, p, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** The terminal's event stream on `replica`: `next(event, pred)` waits for a matching one. */
  const events = async (replica: RunningProcess) => {
    const ac = new AbortController();
    streams.push(ac);
    const res = await request(replica, '/api/quiosque/eventos', { signal: ac.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const seen: { event: string; data: any }[] = [];
    let buffer = '';
    let taken = 0;
    return {
      seen,
      async next(event: string, pred: (d: any) => boolean = () => true, ms = 15_000) {
        const until = Date.now() + ms;
        for (;;) {
          const i = seen.findIndex((e, n) => n >= taken && e.event === event && pred(e.data));
          if (i >= 0) {
            taken = i + 1;
            return seen[i]!.data;
          }
          if (Date.now() > until) throw new Error(`no ${event} within ${ms} ms: ${buffer}`);
          const timer = setTimeout(() => ac.abort(), until - Date.now());
          const { value, done } = await reader.read().finally(() => clearTimeout(timer));
          if (done) throw new Error('stream ended');
          buffer += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const ev = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (ev && data) seen.push({ event: ev, data: JSON.parse(data) });
          }
        }
      },
    };
  };
  return { id: t.id, post, request, events };
}

describe('kiosk across two app-server replicas on one PostgreSQL', suite, () => {
  test('staged on A, seen live and claimed on B; claims through both at once post once; cancel on A reaches B; kill -9 of A loses nothing', async () => {
    const { a, b, sandbox } = replicas;
    const kiosk = await terminal('quiosque', 'Quiosque da entrada');
    const caixa = await terminal('caixa', 'Caixa 1');
    const kioskOnB = await kiosk.events(b);
    const counterOnA = await caixa.events(a);
    expect(await kioskOnB.next('pronto')).toEqual({ venda: null });
    await counterOnA.next('pronto');
    const stage = async (valor: number) => {
      const res = await caixa.post(a, '/api/quiosque/vendas', {
        quiosque: kiosk.id,
        valor_gasto: valor,
        senha_atendente: '1234',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.venda as { id: string };
    };

    // 1. Staged through A; the kiosk's stream on B hears it, B's GET finds it.
    const first = await stage(4590);
    expect(await kioskOnB.next('venda', (d) => d.id === first.id)).toMatchObject({
      estado: 'aguardando',
      valor_gasto: 4590,
      balcao: caixa.id,
    });
    const onB = await kiosk.request(b, '/api/quiosque/venda');
    expect(((await onB.json()) as any).data.venda).toMatchObject({ id: first.id });

    // 2. Claims through A and B at once, several rounds: one claim per sale posts.
    const rounds = 5;
    const statuses: number[] = [];
    let purchases = 0;
    let heardOnA = 0;
    for (let round = 0; round < rounds; round++) {
      const sale = round === 0 ? first : await stage(1000 + round);
      if (round > 0) await kioskOnB.next('venda', (d) => d.id === sale.id);
      const celular = freshPhone();
      const claim = (replica: RunningProcess) =>
        kiosk.post(replica, `/api/quiosque/venda/${sale.id}/resgatar`, {
          celular,
          consentimento: true,
        });
      const answers = await Promise.all([claim(a), claim(b), claim(a), claim(b)]);
      statuses.push(...answers.map((r) => r.status));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
      const won = answers.find((r) => r.status === 200)!.body.data.venda;
      expect(won).toMatchObject({ id: sale.id, estado: 'lançado' });
      const bought = await sandboxPurchases(sandbox.url, celular);
      expect(bought).toBe(1);
      purchases += bought;
      // The counter's stream on A hears the result, whichever replica posted it.
      await counterOnA.next('venda', (d) => d.id === sale.id && d.estado === 'lançado');
      heardOnA++;
    }

    // 3. A cancel through A reaches the kiosk on B; B then refuses the claim.
    const cancelled = await stage(2590);
    await kioskOnB.next('venda', (d) => d.id === cancelled.id && d.estado === 'aguardando');
    const cancel = await caixa.post(a, `/api/quiosque/vendas/${cancelled.id}/cancelar`, {});
    expect(cancel.status).toBe(200);
    expect(
      await kioskOnB.next('venda', (d) => d.id === cancelled.id && d.estado === 'cancelado'),
    ).toMatchObject({ mensagem: 'O caixa cancelou esta venda.' });
    const late = await kiosk.post(b, `/api/quiosque/venda/${cancelled.id}/resgatar`, {
      celular: freshPhone(),
      consentimento: true,
    });
    expect(late.status).toBe(409);

    // 4. Staged through A, then A is killed: B still has the sale and posts it once.
    const survivor = await stage(3300);
    await kioskOnB.next('venda', (d) => d.id === survivor.id);
    await a.kill9();
    const celular = freshPhone();
    const claimed = await kiosk.post(b, `/api/quiosque/venda/${survivor.id}/resgatar`, {
      celular,
      consentimento: true,
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data.venda).toMatchObject({ estado: 'lançado', pontos: 33 });
    const afterKill = await sandboxPurchases(sandbox.url, celular);
    expect(afterKill).toBe(1);

    // Nothing the kiosk's stream carried holds the attendant password (the sales' generated
    // ids aside: a UUID may hold '1234' by chance).
    expect(jsonWithout(kioskOnB.seen, ['id'])).not.toMatch(/1234|senha/);
    console.log(
      `kiosk on 2 replicas: ${rounds} sales staged on A × 4 claims (A,B,A,B) → statuses ${statuses.filter((s) => s === 200).length}×200 ${statuses.filter((s) => s === 409).length}×409, postings in the sandbox ${purchases}; results heard on A's stream ${heardOnA}/${rounds}; cancel on A heard on B, claim on B then 409; after kill -9 of A, claimed on B: ${afterKill} posting`,
    );
  }, 180_000);
});
