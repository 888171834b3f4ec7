/**
 * A fault relay for tests: an HTTP server on a free 127.0.0.1 port that forwards every request
 * to an upstream (the sandbox run alone) and, for the requests a rule matches, injects a fault:
 *
 * - `delay`: hold the request `ms` before forwarding it, so the upstream commits about `ms`
 *   after the client sent it; the answer is then relayed normally;
 * - `lose-answer`: forward (after an optional delay), let the upstream answer (so it has
 *   committed), then reset the client's connection instead of relaying the answer;
 * - `reset-before`: reset the client's connection without forwarding anything (the upstream
 *   never sees the request);
 * - `refuse`: answer with the given status and JSON body instead of the upstream (a refusal
 *   the service could give; the upstream never sees the request).
 *
 * It counts what it received, forwarded, answered and reset, per rule and in total, so a
 * test can print and assert what happened on the wire, and what is in flight right now (a
 * test that kills the client reads it in the same tick as the kill). `setDown(true)` is an
 * outage: every request is reset without reaching the upstream until `setDown(false)`.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { kind: 'delay'; ms: number }
  | { kind: 'lose-answer'; delayMs?: number }
  | { kind: 'reset-before' }
  | { kind: 'refuse'; status: number; body: unknown };

export interface RelayRequest {
  method: string;
  path: string;
  body: string;
}

export interface RelayRule {
  /** A path suffix (`/fidelidade/pontuar`) or a predicate over method, path and body. */
  match: string | ((req: RelayRequest) => boolean);
  fault: Fault;
  /** How many matching requests get the fault (default 1); the rule is spent after that. */
  times?: number;
}

export interface RelayCounts {
  received: number;
  forwarded: number;
  /** Upstream answers relayed to the client. */
  answered: number;
  /** Client connections reset (before or after forwarding). */
  reset: number;
  /**
   * Received and not yet answered or reset: held by a fault, or forwarded and awaiting the
   * upstream. The client has sent the request and has no answer.
   */
  inFlight: number;
}

export interface Relay {
  url: string;
  port: number;
  /** Adds a rule; rules are tried in the order they were added. Returns the rule's counts. */
  add(rule: RelayRule): RelayCounts;
  /** Totals since start (or the last `resetCounts`). */
  counts: RelayCounts;
  /** Requests forwarded whose path ends with the suffix. */
  forwarded(pathSuffix: string): number;
  /** An outage: while down, every request is reset and nothing reaches the upstream. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

interface LiveRule extends RelayRule {
  left: number;
  counts: RelayCounts;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function newCounts(): RelayCounts {
  return { received: 0, forwarded: 0, answered: 0, reset: 0, inFlight: 0 };
}

function resetSocket(socket: Socket): void {
  // An RST, not a FIN: what a dropped link or a crashing proxy looks like to the client.
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

export async function startRelay(upstreamUrl: string): Promise<Relay> {
  const upstream = new URL(upstreamUrl);
  const rules: LiveRule[] = [];
  const totals = newCounts();
  const forwardedPaths: string[] = [];
  const sockets = new Set<Socket>();
  let down = false;

  function forward(
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.OutgoingHttpHeaders; body: Buffer }> {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    }
    headers['content-length'] = String(body.byteLength);
    return new Promise((resolve, reject) => {
      const out = http.request(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const h: http.OutgoingHttpHeaders = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (!HOP_BY_HOP.has(name) && value !== undefined) h[name] = value;
            }
            resolve({ status: res.statusCode ?? 502, headers: h, body: Buffer.concat(chunks) });
          });
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const info: RelayRequest = { method: req.method ?? 'GET', path, body: body.toString('utf8') };
    totals.received += 1;
    if (down) {
      totals.reset += 1;
      resetSocket(req.socket);
      return;
    }

    const rule = rules.find(
      (r) => r.left > 0 && (typeof r.match === 'string' ? path.endsWith(r.match) : r.match(info)),
    );
    if (rule) {
      rule.left -= 1;
      rule.counts.received += 1;
      rule.counts.inFlight += 1;
    }
    totals.inFlight += 1;
    const count = (key: 'forwarded' | 'answered' | 'reset') => {
      const ended = key === 'forwarded' ? 0 : 1;
      totals[key] += 1;
      totals.inFlight -= ended;
      if (rule) {
        rule.counts[key] += 1;
        rule.counts.inFlight -= ended;
      }
    };
    const fault = rule?.fault;

    if (fault?.kind === 'reset-before') {
      count('reset');
      resetSocket(req.socket);
      return;
    }
    if (fault?.kind === 'refuse') {
      count('answered');
      const text = JSON.stringify(fault.body);
      res.writeHead(fault.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    const delay =
      fault?.kind === 'delay' ? fault.ms : fault?.kind === 'lose-answer' ? (fault.delayMs ?? 0) : 0;
    if (delay > 0) await sleep(delay);
    // Forwarded even when the client gave up while the request was held: a slow network
    // still delivers what was sent, and the upstream commits it.
    let answer;
    try {
      count('forwarded');
      forwardedPaths.push(path);
      answer = await forward(req, body);
    } catch {
      count('reset');
      resetSocket(req.socket);
      return;
    }
    if (fault?.kind === 'lose-answer' || req.socket.destroyed) {
      count('reset');
      resetSocket(req.socket);
      return;
    }
    count('answered');
    res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.byteLength });
    res.end(answer.body);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Keep held requests going: no server-side timeouts in a test relay.
  server.requestTimeout = 0;
  server.headersTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts: totals,
    add(rule) {
      const live: LiveRule = { ...rule, left: rule.times ?? 1, counts: newCounts() };
      rules.push(live);
      return live.counts;
    },
    forwarded: (suffix) => forwardedPaths.filter((p) => p.endsWith(suffix)).length,
    setDown(v) {
      down = v;
      // A link going down drops what is open too.
      if (v) for (const s of sockets) resetSocket(s);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
