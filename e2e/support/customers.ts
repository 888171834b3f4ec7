import type { APIRequestContext, Page } from '@playwright/test';
import { cpfCheckDigits } from '#contract/wire';
import { asTerminal, BASE_1, expect } from './fixtures';

// Customers of the seeded service for a test's setup: new phones and CPFs no other test uses,
// and reading or registering a customer straight through the app server (no UI).

/** A valid Brazilian mobile no test has used: +55 11 9XXXX-XXXX. */
export function uniquePhone(): { e164: string; digits: string } {
  const rest = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  const local = `9${(1 + Math.floor(Math.random() * 9)).toString()}${rest.slice(1)}`;
  return { e164: `+5511${local}`, digits: `11${local}` };
}

/** A CPF with valid check digits, random. */
export function uniqueCpf(): string {
  const d = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (d.every((x) => x === d[0])) d[0] = (d[0]! + 1) % 10;
  const nine = d.join('');
  return nine + cpfCheckDigits(nine);
}

/** Reads a customer straight from the service through the app server (no UI). */
export async function fetchCustomer(
  request: APIRequestContext,
  key: { celular: string } | { cpf: string } | { id_cliente: number },
  establishment = 1,
  baseURL?: string,
) {
  const url = `${baseURL ?? ''}/api/v4/estabelecimentos/${establishment}/clientes/buscar`;
  await asTerminal(request, baseURL);
  // The app server takes a POST only with its own Origin (as a browser sends it).
  const res = await request.post(url, { data: key, headers: { origin: baseURL ?? BASE_1 } });
  if (res.status() === 404) return null;
  expect(res.status()).toBe(200);
  return (await res.json()).data as {
    id_cliente: number;
    nome: string;
    compras: number;
    ultima_compra: string | null;
    carteira: { saldo: number; saldo_carencia: number };
  };
}

/**
 * Registers a customer of establishment 1 straight through the service (the proxy), for test
 * setup: a phone no other test uses unless one is given. Returns the phone.
 */
export async function newCustomer(
  page: Page,
  fields: { nome: string } & Record<string, unknown>,
  phone: { e164: string; digits: string } = uniquePhone(),
) {
  await asTerminal(page.request);
  const res = await page.request.post('/api/v4/estabelecimentos/1/clientes/cadastrar', {
    data: { celular: phone.e164, ...fields },
    headers: { origin: BASE_1 },
  });
  expect(res.status()).toBe(201);
  return phone;
}
