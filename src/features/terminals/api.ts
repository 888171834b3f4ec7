import { serverRequest } from '@/api/client';
import { EnrollAnswer } from '@/api/contract/terminals';

/** Redeems a manager's one-time code; the answer sets this browser's credential cookie. */
export function enrollTerminal(codigo: string): Promise<EnrollAnswer> {
  return serverRequest({
    method: 'POST',
    path: '/api/terminal/registrar',
    body: { codigo },
    schema: EnrollAnswer,
  });
}
