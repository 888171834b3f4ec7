/**
 * The posting journal's tests: a service started on a journal that already holds entries (as
 * the next process after a crash or a restart finds it) and a cashier's posting read back as
 * its journal entry.
 */
import { randomUUID } from 'node:crypto';
import type { JournalEntry } from '../../store';
import type { PostingServiceOptions } from '../domain/journal/context';
import { createPostingService, type PostingService } from '../domain/journal/service';

/**
 * A posting service of establishment 1 on `store`, `call` answering for the service, started
 * with `options`; `cleanup` stops it after the test.
 */
export function startedOn(
  cleanup: (() => Promise<unknown>)[],
  store: PostingServiceOptions['store'],
  call: PostingServiceOptions['call'],
  options: Omit<Partial<PostingServiceOptions>, 'store' | 'call'>,
): PostingService {
  const service = createPostingService({ store, call, establishmentId: 1, ...options });
  service.start();
  cleanup.push(() => service.stop());
  return service;
}

/** `body` posted by terminal t1 (request r1) under `key`: its journal entry, else a throw. */
export async function postEntry(
  service: PostingService,
  body: unknown,
  key: string = randomUUID(),
): Promise<JournalEntry> {
  const r = await service.submit({ key, terminalId: 't1', requestId: 'r1', body });
  if (r.kind !== 'entry') throw new Error(`${r.kind}: ${JSON.stringify(r)}`);
  return r.entry;
}
