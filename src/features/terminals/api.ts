import { serverRequest } from '@/api/client';
import type * as z from 'zod/mini';
import { EnrollAnswer, type EnrollRequest } from '#contract/api/terminals';

/** Redeems a manager's one-time code; the answer sets this browser's credential cookie. */
export function enrollTerminal(codigo: string): Promise<EnrollAnswer> {
  return serverRequest({
    method: 'POST',
    path: '/api/terminal/registrar',
    body: { codigo } satisfies z.input<typeof EnrollRequest>,
    schema: EnrollAnswer,
  });
}
