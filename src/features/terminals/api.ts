import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';
import { serverRequest } from '@/api/client';
import { Terminal } from '@/api/schemas';

const Enrolled = lazySchema(() => z.looseObject({ terminal: Terminal }));

/** Redeems a manager's one-time code; the answer sets this browser's credential cookie. */
export function enrollTerminal(codigo: string): Promise<z.infer<typeof Enrolled>> {
  return serverRequest({
    method: 'POST',
    path: '/api/terminal/registrar',
    body: { codigo },
    schema: Enrolled,
  });
}
