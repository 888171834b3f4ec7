/**
 * The kiosk's own calls to the loyalty service (tokens and establishment applied here, never
 * by a browser): find a customer, register one, a customer's pending rewards, and the
 * attendant-password check. Postings go through the journal, never through this file.
 */
/** The loyalty service's client (structurally `Upstream` of the proxy; see upstream/). */
interface Upstream {
  fetch(req: Request): Response | Promise<Response>;
}

export interface KioskServiceOptions {
  upstream: Upstream;
  upstreamBaseUrl: string;
  appToken: string;
  accessToken: string;
  establishmentId: number;
  /** Limit of one request. Default 10 s. */
  timeoutMs?: number;
}

export type Answer = { status: number; body: Record<string, unknown> | null };

/** A 422 naming `senha_atendente`, in any error shape the service may use (as access.ts). */
function namesPassword(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  for (const field of ['errors', 'messages']) {
    const errs = b[field];
    if (typeof errs === 'object' && errs !== null && 'senha_atendente' in errs) return true;
  }
  return false;
}

export class ServiceUnavailable extends Error {
  override name = 'ServiceUnavailable';
}

export function kioskService(options: KioskServiceOptions) {
  const base = `${options.upstreamBaseUrl.replace(/\/+$/, '')}/api/v4/estabelecimentos/${options.establishmentId}`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    let res: Response;
    try {
      res = await options.upstream.fetch(
        new Request(`${base}/${path}`, {
          method,
          headers: {
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            'app-token': options.appToken,
            'access-token': options.accessToken,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        }),
      );
    } catch {
      throw new ServiceUnavailable();
    }
    let parsed: unknown = null;
    try {
      parsed = await res.json();
    } catch {
      parsed = null;
    }
    if (res.status >= 500) throw new ServiceUnavailable();
    const obj =
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : null;
    return { status: res.status, body: obj };
  }

  const dataOf = (a: Answer) => (a.body?.data ?? null) as Record<string, unknown> | null;

  return {
    /** The customer's `data`, or null when the service has none with this phone. */
    async find(celular: string): Promise<Record<string, unknown> | null> {
      const a = await call('POST', 'clientes/buscar', { celular });
      if (a.status === 404) return null;
      if (a.status !== 200 || dataOf(a) === null) throw new ServiceUnavailable();
      return dataOf(a);
    },
    /** Registers; answers the 422 field errors when the service refuses the data. */
    async register(input: {
      celular: string;
      nome?: string;
    }): Promise<
      { ok: true } | { ok: false; status: number; body: Record<string, unknown> | null }
    > {
      const a = await call('POST', 'clientes/cadastrar', input);
      if (a.status === 201 || a.status === 200 || a.status === 409) return { ok: true };
      return { ok: false, status: a.status, body: a.body };
    },
    /** The customer's rewards waiting to be redeemed (one page of up to 100). */
    async pendingRewards(idCliente: number): Promise<unknown[]> {
      const q = new URLSearchParams({
        id_cliente: String(idCliente),
        status: 'pendente_resgate',
        itens_por_pagina: '100',
      });
      const a = await call('GET', `recompensas?${q}`);
      if (a.status !== 200) throw new ServiceUnavailable();
      const page = dataOf(a);
      return Array.isArray(page?.data) ? (page.data as unknown[]) : [];
    },
    /**
     * Whether the service accepts this attendant password. The service has no check of its
     * own: this sends a posting it must refuse (amount 0, no phone) and reads whether the
     * refusal names `senha_atendente` (the service validates every field and lists each
     * error). Nothing can be posted by it.
     */
    async checkPassword(senha: string): Promise<'ok' | 'wrong'> {
      const a = await call('POST', 'fidelidade/pontuar', {
        valor_gasto: 0,
        senha_atendente: senha,
        cliente: { celular: '' },
      });
      if (a.status !== 422) throw new ServiceUnavailable();
      return namesPassword(a.body) ? 'wrong' : 'ok';
    },
  };
}

export type KioskService = ReturnType<typeof kioskService>;
