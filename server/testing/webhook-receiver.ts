/**
 * A webhook's receiver for tests: a node:http server on 127.0.0.1 that checks each delivery's
 * signature as docs/vigilancia.md tells a store's developer to (HMAC-SHA256 of
 * "<timestamp>.<body>", compared in constant time, the timestamp within 5 minutes) and answers
 * the statuses a test scripts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertWire } from '#contract/api/vigilancia';

export interface Received {
  at: number;
  delivery: string;
  event: string;
  verified: boolean;
  body: { evento: string; loja: number; alerta: AlertWire };
}

/** The receiver's check, as a store's developer writes it (docs/vigilancia.md). */
export function verifySignature(req: IncomingMessage, raw: string, secret: string): boolean {
  const ts = String(req.headers['x-fidelidade-timestamp'] ?? '');
  const sig = String(req.headers['x-fidelidade-signature'] ?? '');
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
  return (
    fresh &&
    sig.length === expected.length &&
    timingSafeEqual(Buffer.from(sig), Buffer.from(expected))
  );
}

/**
 * A receiver answering `script[n]` to its n-th request (then the last one again), on `port`
 * (0: a free one).
 */
export async function webhookReceiver(secret: string, script: number[], port = 0) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      got.push({
        at: Date.now(),
        delivery: String(req.headers['x-fidelidade-entrega']),
        event: String(req.headers['x-fidelidade-evento']),
        verified: verifySignature(req, raw, secret),
        body: JSON.parse(raw) as Received['body'],
      });
      res.writeHead(script[Math.min(got.length - 1, script.length - 1)]!).end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  const p = (server.address() as AddressInfo).port;
  return {
    got,
    url: `http://127.0.0.1:${p}/alertas`,
    port: p,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
