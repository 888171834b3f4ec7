/**
 * The kiosk's own calls to the loyalty service (through the upstream client, which adds the
 * tokens and the establishment; never a browser): find a customer, register one, a customer's pending rewards, and the
 * attendant-password check. Postings go through the journal, never through this file.
 */
import type { UpstreamClient } from '../../upstream/client';
import { namesPassword } from '../access/limits';

export interface KioskServiceOptions {
  client: UpstreamClient;
  /** Limit of one request. Default 10 s. */
  timeoutMs?: number;
}

export type Answer = { status: number; body: Record<string, unknown> | null };

export class ServiceUnavailable extends Error {
  override name = 'ServiceUnavailable';
}

export function kioskService(options: KioskServiceOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    let res: Response;
    try {
      res = await options.client.json(method, path, body, AbortSignal.timeout(timeoutMs));
    } catch {
      throw new ServiceUnavailable();
    }
    let parsed: unknown;
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
    /** The customer's `data` by CPF (11 digits), or null when none has it. */
    async findCpf(cpf: string): Promise<Record<string, unknown> | null> {
      const a = await call('POST', 'clientes/buscar', { cpf });
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
