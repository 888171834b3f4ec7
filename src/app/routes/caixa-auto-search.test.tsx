// The counter's search that leaves by itself at a complete phone's last digit: the panel opens
// with no Enter, and typing on neither loses a key, moves the focus away from the typing, nor
// lets an older answer replace a newer one. The service is stubbed at fetch.
import { beforeEach, expect, test } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  counterConfig,
  customerWire,
  jsonResponse,
  ok,
  rewardPageWire,
  stubFetch,
} from '@/testing/fixtures';
import { refusal, stubServiceEachTest } from '@/testing/api';
import { CaixaRoute } from './caixa';
import { renderWithQuery, waitLongerForLazyParts } from '@/testing/render';

const BASE = '/api/v4/estabelecimentos/1';

waitLongerForLazyParts();
stubServiceEachTest();
beforeEach(() => sessionStorage.clear());

const config = counterConfig();

const CUSTOMERS: Record<string, { id_cliente: number; nome: string }> = {
  '+5511987654321': { id_cliente: 42, nome: 'Maria da Silva' },
  '+5511987654322': { id_cliente: 43, nome: 'Joana Souza' },
};

/**
 * The service: each lookup by phone waits until the test lets it answer (`answer(celular)`),
 * or answers at once with `held` false. Every request is recorded.
 */
function service({ held }: { held: boolean }) {
  const waiting = new Map<string, () => void>();
  const requests: { url: string; body: unknown }[] = [];
  stubFetch(async (url, init) => {
    const body: unknown = init.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ url, body });
    if (url === `${BASE}/clientes/buscar`) {
      const celular = (body as { celular?: string }).celular ?? '';
      if (held) await new Promise<void>((resolve) => waiting.set(celular, resolve));
      const who = CUSTOMERS[celular];
      return who
        ? jsonResponse(200, ok(customerWire({ ...who, celular })))
        : refusal(404, 'Cliente não encontrado');
    }
    if (url.startsWith(`${BASE}/recompensas`))
      return jsonResponse(200, ok(rewardPageWire({ data: [], total: 0, from: null, to: null })));
    return jsonResponse(200, ok({ contingencia: false, aguardando: 0, atencao: 0 }));
  });
  const answer = async (celular: string) => {
    await waitFor(() => expect(waiting.has(celular)).toBe(true));
    waiting.get(celular)!();
  };
  const lookups = () =>
    requests.filter((r) => r.url.endsWith('/clientes/buscar')).map((r) => r.body);
  const postings = () => requests.filter((r) => r.url.endsWith('/pontuar'));
  return { answer, lookups, postings };
}

async function openCounter() {
  const user = userEvent.setup();
  renderWithQuery(<CaixaRoute config={config} />, { noRetry: true });
  await user.type(await screen.findByLabelText('Senha do atendente'), '1234{Enter}');
  const field = screen.getByLabelText<HTMLInputElement>(/Buscar cliente/);
  await waitFor(() => expect(document.activeElement).toBe(field));
  return { user, field };
}

test("a known phone's digits alone open the panel, and the amount takes the focus", async () => {
  const svc = service({ held: false });
  const { user } = await openCounter();
  await user.keyboard('11987654321');
  expect(await screen.findByRole('region', { name: 'Maria da Silva' })).toBeTruthy();
  const amount = await screen.findByLabelText('Valor da compra');
  await waitFor(() => expect(document.activeElement).toBe(amount));
  expect(svc.lookups()).toEqual([{ celular: '+5511987654321' }]);
});

test('a key typed after the search left keeps the focus and the digit, and posts nothing', async () => {
  const svc = service({ held: true });
  const { user, field } = await openCounter();
  await user.keyboard('11987654321');
  // The answer is not in yet: the cashier types on (an amount's digit, too early).
  await user.keyboard('4');
  expect(field.value).toBe('119876543214');
  await svc.answer('+5511987654321');
  expect(await screen.findByRole('region', { name: 'Maria da Silva' })).toBeTruthy();
  await screen.findByLabelText('Valor da compra');
  // The answer came while the cashier was typing: the focus stays where the typing is.
  expect(document.activeElement).toBe(field);
  await user.keyboard('59{Enter}');
  expect(field.value).toBe('11987654321459');
  expect(await screen.findByRole('alert')).toHaveProperty(
    'textContent',
    expect.stringContaining('dígitos a mais'),
  );
  expect(document.activeElement).toBe(field);
  expect(svc.lookups()).toHaveLength(1);
  expect(svc.postings()).toHaveLength(0);
});

test("an older answer never replaces a newer search's", async () => {
  const svc = service({ held: true });
  const { user, field } = await openCounter();
  await user.keyboard('11987654321'); // Maria: leaves by itself, held
  await user.keyboard('{Backspace}2'); // Joana: leaves by itself, held
  expect(field.value).toBe('(11) 98765-4322');
  expect(svc.lookups()).toEqual([{ celular: '+5511987654321' }, { celular: '+5511987654322' }]);
  await svc.answer('+5511987654322');
  expect(await screen.findByRole('region', { name: 'Joana Souza' })).toBeTruthy();
  await svc.answer('+5511987654321');
  // Maria's late answer changes nothing on screen.
  await new Promise((r) => setTimeout(r, 50));
  expect(screen.queryByRole('region', { name: 'Maria da Silva' })).toBeNull();
  expect(screen.getByRole('region', { name: 'Joana Souza' })).toBeTruthy();
  const amount = screen.getByLabelText('Valor da compra');
  await waitFor(() => expect(document.activeElement).toBe(amount));
});
