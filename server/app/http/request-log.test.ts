import { describe, expect, test } from 'vitest';
import type { PostingService } from '../domain/journal/service';
import { loggablePath } from './request-log';
import {
  ACCESS_TOKEN,
  APP_TOKEN,
  jsonWithout,
  makeApp,
  recordingUpstream,
} from '../../testing/app-harness';

const CPF = '52998224725';
const PASSWORD = 'senha-do-atendente-1234';

function parse(lines: string[]): Record<string, unknown>[] {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('request logs', () => {
  test('one line per request with method, path without query, status and duration', async () => {
    const { app, lines } = makeApp();
    await app.request('/api/config?x=1');
    await app.request('/api/v4/estabelecimentos/1/recompensas?q=pizza&page=2');
    await app.request('/api/v4/estabelecimentos/9/recompensas');
    const entries = parse(lines);
    expect(entries).toHaveLength(3);
    expect(entries.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/api/config', status: 200 },
      { method: 'GET', path: '/api/v4/estabelecimentos/1/recompensas', status: 200 },
      { method: 'GET', path: '/api/v4/estabelecimentos/9/recompensas', status: 403 },
    ]);
    for (const e of entries) {
      expect(typeof e.durationMs).toBe('number');
      expect(e.durationMs as number).toBeGreaterThanOrEqual(0);
      expect(e.msg).toBe('request');
    }
    expect(entries.map((e) => e.level)).toEqual([30, 30, 40]);
  });

  test('an upstream failure is logged on the same single line with a code, at error level', async () => {
    const { app, lines } = makeApp({
      upstream: {
        fetch: () => {
          throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        },
      },
    });
    await app.request('/api/v4/estabelecimentos/1/clientes/buscar', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const entries = parse(lines);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ status: 502, upstreamError: 'ECONNREFUSED', level: 50 });
  });

  test('a 500 logs its error on the same line: name, message and stack, a phone masked', async () => {
    const cause = new Error('no journal entry for +5511987654321');
    const postings = {
      journalsIn: () => false,
      status: () => Promise.reject(cause),
    } as unknown as PostingService;
    const { app, lines } = makeApp({ postings });
    const res = await app.request('/api/contingencia');
    expect(res.status).toBe(500);
    const entries = parse(lines);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      status: 500,
      level: 50,
      error: { name: 'Error', message: 'no journal entry for +*************' },
    });
    const { stack } = entries[0]!.error as { stack: string };
    expect(stack).toMatch(/^Error: no journal entry for \+\*{13}\n\s+at /);
    expect(lines.join('\n')).not.toContain('5511987654321');
  });

  test('never contain a token, a password, a body or a full CPF', async () => {
    const rec = recordingUpstream(
      () =>
        new Response(
          JSON.stringify({
            success: true,
            message: 'ok',
            data: { cpf: CPF, nome: 'Maria Sigilosa' },
          }),
          { headers: { 'content-type': 'application/json', 'x-token': APP_TOKEN } },
        ),
    );
    const { app, lines } = makeApp({ upstream: rec.upstream });
    const secretHeaders = {
      'content-type': 'application/json',
      'app-token': APP_TOKEN,
      'access-token': ACCESS_TOKEN,
      authorization: `Bearer ${ACCESS_TOKEN}`,
      cookie: `session=${APP_TOKEN}`,
      'x-senha': PASSWORD,
    };
    const body = JSON.stringify({
      valor_gasto: 1050,
      senha_atendente: PASSWORD,
      cliente: { celular: '+5511987654321', cpf: CPF, nome: 'Maria Sigilosa' },
    });
    await app.request('/api/v4/estabelecimentos/1/fidelidade/pontuar', {
      method: 'POST',
      headers: secretHeaders,
      body,
    });
    await app.request(`/api/v4/estabelecimentos/1/clientes/${CPF}?cpf=${CPF}&senha=${PASSWORD}`, {
      headers: secretHeaders,
    });
    await app.request(`/api/v4/estabelecimentos/2/clientes/buscar?token=${ACCESS_TOKEN}`, {
      method: 'POST',
      headers: secretHeaders,
      body,
    });
    await app.request(`/clientes/${CPF}/${APP_TOKEN}`, { headers: secretHeaders });
    expect(rec.received).toHaveLength(1); // pontuar really went through (the others are refused)

    expect(lines).toHaveLength(4);
    const all = lines.join('\n');
    for (const secret of [
      APP_TOKEN,
      ACCESS_TOKEN,
      PASSWORD,
      CPF,
      'Maria Sigilosa',
      '5511987654321',
    ]) {
      expect(all).not.toContain(secret);
    }
    // The amount is a short number: the fields the logger adds by itself (time, pid, host,
    // request id, duration) may hold those digits by chance (pid 10506 once did), so it is
    // looked for in everything else.
    const described = jsonWithout(parse(lines), [
      'time',
      'pid',
      'hostname',
      'requestId',
      'durationMs',
    ]);
    expect(described).not.toContain('1050');
    expect(parse(lines)[1]!.path).toBe('/api/v4/estabelecimentos/1/clientes/***********');
    expect(parse(lines)[3]!.path).toBe('/clientes/***********/[redacted]');
  });
});

describe('loggablePath', () => {
  test('masks every run of 11 or more digits and keeps shorter ones', () => {
    expect(loggablePath('/a/12345678901/b/123/c/+5511987654321')).toBe(
      '/a/***********/b/123/c/+*************',
    );
  });
});
