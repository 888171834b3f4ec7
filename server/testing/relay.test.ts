import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshPhone, sandboxPurchases, startSandbox, type RunningProcess } from './processes';
import { startRelay, type Relay } from './relay';

let dir: string;
let sandbox: RunningProcess;
let relay: Relay;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'relay-test-'));
  sandbox = await startSandbox(path.join(dir, 'sandbox.db'));
  relay = await startRelay(sandbox.url);
}, 40_000);

afterAll(async () => {
  await relay?.close();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function post(celular: string) {
  return fetch(`${relay.url}/api/v4/estabelecimentos/1/fidelidade/pontuar`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'app-token': 'demo-app-token',
      'access-token': 'demo-access-token-1',
    },
    body: JSON.stringify({ valor_gasto: 1000, senha_atendente: '1234', cliente: { celular } }),
  });
}

describe('fault relay in front of the real sandbox', () => {
  test('passes requests through untouched when no rule matches', async () => {
    const phone = freshPhone();
    const res = await post(phone);
    expect(res.status).toBe(200);
    expect(await sandboxPurchases(sandbox.url, phone)).toBe(1);
  });

  test('delay: the answer comes after the delay and the upstream commits once', async () => {
    const phone = freshPhone();
    const counts = relay.add({ match: '/fidelidade/pontuar', fault: { kind: 'delay', ms: 300 } });
    const started = performance.now();
    const res = await post(phone);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(counts).toEqual({ received: 1, forwarded: 1, answered: 1, reset: 0, inFlight: 0 });
    expect(await sandboxPurchases(sandbox.url, phone)).toBe(1);
  });

  test('inFlight counts a request from its arrival to its answer, per rule and in total', async () => {
    const phone = freshPhone();
    const counts = relay.add({
      match: (r) => r.body.includes(phone),
      fault: { kind: 'delay', ms: 400 },
    });
    const before = relay.counts.inFlight;
    const res = post(phone);
    await expect.poll(() => counts.inFlight, { interval: 10 }).toBe(1);
    expect(relay.counts.inFlight).toBe(before + 1);
    expect(counts.forwarded).toBe(0);
    expect((await res).status).toBe(200);
    expect(counts).toEqual({ received: 1, forwarded: 1, answered: 1, reset: 0, inFlight: 0 });
    expect(relay.counts.inFlight).toBe(before);
  });

  test('lose-answer: the upstream commits, the client sees a reset connection', async () => {
    const phone = freshPhone();
    const counts = relay.add({
      match: (r) => r.body.includes(phone),
      fault: { kind: 'lose-answer' },
    });
    await expect(post(phone)).rejects.toThrow();
    expect(counts).toEqual({ received: 1, forwarded: 1, answered: 0, reset: 1, inFlight: 0 });
    expect(await sandboxPurchases(sandbox.url, phone)).toBe(1);
  });

  test('reset-before: nothing reaches the upstream', async () => {
    const phone = freshPhone();
    const counts = relay.add({ match: '/fidelidade/pontuar', fault: { kind: 'reset-before' } });
    await expect(post(phone)).rejects.toThrow();
    expect(counts).toEqual({ received: 1, forwarded: 0, answered: 0, reset: 1, inFlight: 0 });
    expect(await sandboxPurchases(sandbox.url, phone)).toBe(0);
    // The rule is spent: the next request goes through.
    expect((await post(phone)).status).toBe(200);
    expect(await sandboxPurchases(sandbox.url, phone)).toBe(1);
  });
});
