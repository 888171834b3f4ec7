// The "Terminais" screen's calls to the app server (contract/api/terminais.ts): a store's
// terminals, a new terminal's one-time code, a revocation, a counter's customer display.
// Parsed with the contract both sides share.
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import {
  CreatedTerminal,
  TerminalChanged,
  TerminalList,
  type CreateTerminalRequest,
  type PairRequest,
} from '#contract/api/terminais';

export const terminaisKeys = {
  all: ['terminais'] as const,
  /** A store's list (null: the asking terminal's store). */
  list: (loja: number | null) => [...terminaisKeys.all, loja] as const,
};

export const terminaisQuery = (loja: number | null) =>
  queryOptions({
    queryKey: terminaisKeys.list(loja),
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: '/api/terminais',
        query: loja === null ? {} : { loja: String(loja) },
        schema: TerminalList,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const useTerminais = (loja: number | null) => useQuery(terminaisQuery(loja));

/** A change to the store's terminals: once it is answered, the lists are read again. */
function useTerminaisChange<Vars, Answer>(mutationFn: (vars: Vars) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: terminaisKeys.all }),
  });
}

/**
 * A new terminal and its code. `key` is the form's Idempotency-Key: the same request sent
 * again (an answer lost) gives the same code, never a second terminal.
 */
export const useCreateTerminal = () =>
  useTerminaisChange(({ body, key }: { body: CreateTerminalRequest; key: string }) =>
    serverRequest({
      method: 'POST',
      path: '/api/terminais',
      body,
      schema: CreatedTerminal,
      headers: { 'idempotency-key': key },
    }),
  );

export const useRevokeTerminal = () =>
  useTerminaisChange((id: number) =>
    serverRequest({
      method: 'POST',
      path: `/api/terminais/${id}/revogar`,
      body: {},
      schema: TerminalChanged,
    }),
  );

export const usePairDisplay = () =>
  useTerminaisChange(({ counter, body }: { counter: number; body: PairRequest }) =>
    serverRequest({
      method: 'PUT',
      path: `/api/terminais/${counter}/quiosque`,
      body,
      schema: TerminalChanged,
    }),
  );
