/**
 * The app server's route tests over the embedded sandbox: store 1 of an in-memory sandbox as
 * the upstream, a posting service calling it (on a journal of the test's or a new in-memory
 * one), the app server with the tests' defaults, a circuit the test opens and closes, and a
 * JSON POST to a Hono app.
 */
import { openSandbox } from '../../sandbox/sandbox';
import { capturedLogger, TEST_SECRET } from '../../testing/app-harness';
import { sqliteJournal } from '../../testing/journal-support';
import { createAppServer } from '../app';
import type { PostingServiceOptions } from '../domain/journal/context';
import { createPostingService } from '../domain/journal/service';
import { embeddedSandbox } from '../embedded';
import type { AppServerOptions } from '../options';
import { clientOf } from '../upstream/client';

type Closers = (() => unknown)[];

/**
 * Store 1 of a new in-memory sandbox and a posting service over `options.store` (else a new
 * in-memory journal); `closers` stops the service and closes what was opened here.
 */
export async function embeddedPostings(
  closers: Closers,
  options: Partial<Omit<PostingServiceOptions, 'call' | 'establishmentId'>> = {},
) {
  const sandbox = openSandbox({ dbPath: ':memory:' });
  const upstream = embeddedSandbox(sandbox, 1)!;
  const journal = options.store === undefined ? await sqliteJournal() : null;
  const service = createPostingService({
    ...options,
    store: options.store ?? journal!.store,
    call: clientOf(upstream).call,
    establishmentId: 1,
  });
  closers.push(
    () => sandbox.close(),
    () => journal?.close(),
    () => service.stop(),
  );
  return { sandbox, upstream, service };
}

type Defaulted = 'distDir' | 'secret' | 'publicOrigin' | 'autoEnroll';

/**
 * The app server as route tests run it: no SPA build, no public origin, no enrolment by
 * itself, the tests' secret, its log captured unless `options.logger` says otherwise.
 */
export function testAppServer(
  options: Omit<AppServerOptions, Defaulted> & Partial<Pick<AppServerOptions, Defaulted>>,
) {
  return createAppServer({
    distDir: '/nonexistent',
    logger: capturedLogger().logger,
    secret: TEST_SECRET,
    publicOrigin: null,
    autoEnroll: false,
    ...options,
  });
}

/** Request rates no test reaches. */
export const NO_RATE_LIMITS = {
  burst: { limit: 1_000_000, windowMs: 1_000 },
  sustained: { limit: 1_000_000, windowMs: 1_000 },
};

/** A circuit breaker the test opens and closes (`set`). */
export function switchableCircuit(open: boolean) {
  const circuit = {
    isOpen: () => open,
    openedAt: () => (open ? 1 : null),
    onChange: () => () => true,
  };
  return { circuit, set: (v: boolean) => (open = v) };
}

/** A JSON POST of `body` to `app` at `path`, with `headers` besides the content type. */
export function postJson(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}
