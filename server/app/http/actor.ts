/**
 * Who a request's actor is, for the audit trail: its enrolled terminal (set by
 * requireTerminal, or the one a request just enrolled) and its request id (set by the request
 * log, the one echoed as `x-request-id`).
 */
import type { Context } from 'hono';
import type { Actor } from '../domain/audit';

interface Who {
  id: number;
  name: string;
  role: string;
}

export function actorOf(c: Context, who?: Who | null): Actor {
  const t = who ?? (c.get('terminal') as Who | undefined) ?? null;
  return {
    terminalId: t?.id ?? null,
    terminalName: t?.name ?? null,
    role: t?.role ?? null,
    requestId: (c.get('requestId') as string | undefined) ?? null,
  };
}
