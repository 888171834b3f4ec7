import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Customer } from '@/api/schemas';
import { customerOf, rewardPageAnswer, rewardWire, stubFetch } from '@/testing/fixtures';
import { refusal, stubServiceEachTest } from '@/testing/api';
import { PendingRewards } from './pending-rewards';
import { renderWithQuery } from '@/testing/render';

stubServiceEachTest();

const TODAY = '2026-11-23';
const maria = customerOf({
  nome: 'Maria da Silva',
  pendente_resgate_premio_fidelidade: 1,
  pendente_resgate_premio_campanha: 1,
});
const vale = rewardWire({
  id_premio_cliente: 901,
  id_premio: 3,
  nome: 'Vale-compras de R$ 10,00',
  categoria_premio: 'premio_fidelidade',
  data_conquista: '2026-10-27 18:00:00',
  valido_ate: '2026-11-26 23:59:59',
});
const caneca = rewardWire({
  id_premio_cliente: 905,
  id_premio: 8,
  nome: 'Caneca',
  categoria_premio: 'premio_campanha',
  data_conquista: '2026-11-20 10:00:00',
  valido_ate: '2026-12-20 23:59:59',
});

function setup(options: { customer?: Customer; canHandOver?: boolean; disabled?: boolean } = {}) {
  const onHandOver = vi.fn();
  renderWithQuery(
    <PendingRewards
      customer={options.customer ?? maria}
      canHandOver={options.canHandOver ?? true}
      disabled={options.disabled}
      onHandOver={onHandOver}
      today={TODAY}
    />,
    { noRetry: true },
  );
  return { onHandOver, user: userEvent.setup() };
}

const list = () => screen.getByRole('list', { name: 'Prêmios a entregar' });
const rows = () =>
  within(list())
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('PendingRewards', () => {
  test('lists what waits, soonest to expire first: name, category, won on, valid until, "vence em 3 dias"', async () => {
    const fetchMock = stubFetch(() => rewardPageAnswer({ data: [caneca, vale] }));
    setup();
    await screen.findByRole('list', { name: 'Prêmios a entregar' });
    const [first, second] = within(list()).getAllByRole('listitem');
    const said = (li: HTMLElement | undefined) => li?.textContent?.replace(/ · , /g, ', ') ?? '';
    expect(said(first)).toBe(
      'Vale-compras de R$ 10,00Fidelidade, ganho em 27/10/2026, válido até 26/11/2026(vence em 3 dias)Entregar',
    );
    expect(said(second)).toBe('CanecaCampanha, ganho em 20/11/2026, válido até 20/12/2026Entregar');
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://x');
    expect(url.pathname).toBe('/api/v4/estabelecimentos/1/recompensas');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id_cliente: '42',
      status: 'pendente_resgate',
      itens_por_pagina: '100',
    });
  });

  test('"Entregar" hands over that reward of that customer, from the keyboard too', async () => {
    stubFetch(() => rewardPageAnswer({ data: [vale] }));
    const { onHandOver, user } = setup();
    await screen.findByRole('list', { name: 'Prêmios a entregar' });
    await user.tab();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Entregar Vale-compras de R$ 10,00' }),
    );
    await user.keyboard('{Enter}');
    expect(onHandOver).toHaveBeenCalledTimes(1);
    expect(onHandOver).toHaveBeenCalledWith(
      {
        customer: { id_cliente: 42, nome: 'Maria da Silva', celular: '+5511987654321' },
        reward: {
          id_premio: 3,
          id_premio_cliente: 901,
          nome: 'Vale-compras de R$ 10,00',
          categoria_premio: 'premio_fidelidade',
          valido_ate: '2026-11-26 23:59:59',
        },
      },
      document.activeElement,
    );
  });

  test('where the counter does not hand over, the list shows without "Entregar"', async () => {
    stubFetch(() => rewardPageAnswer({ data: [vale] }));
    setup({ canHandOver: false });
    await screen.findByRole('list', { name: 'Prêmios a entregar' });
    expect(screen.queryByRole('button', { name: /Entregar/ })).toBeNull();
  });

  test('while a posting is on its way "Entregar" waits', async () => {
    stubFetch(() => rewardPageAnswer({ data: [vale] }));
    setup({ disabled: true });
    const button = await screen.findByRole('button', { name: /Entregar/ });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  test('a customer whose counters say nothing waits: no request, "Nenhum prêmio a entregar."', () => {
    const fetchMock = stubFetch(() => rewardPageAnswer());
    setup({ customer: customerOf() });
    expect(screen.getByText('Nenhum prêmio a entregar.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('loading, then an empty answer, say so', async () => {
    stubFetch(() => rewardPageAnswer({ data: [], total: 0 }));
    setup();
    expect(screen.getByRole('status').textContent).toBe('Buscando prêmios a entregar…');
    expect(await screen.findByText('Nenhum prêmio a entregar.')).toBeTruthy();
  });

  test('a reward already past its validity is not offered', async () => {
    const old = rewardWire({ id_premio_cliente: 800, valido_ate: '2026-11-22 23:59:59' });
    stubFetch(() => rewardPageAnswer({ data: [old, vale] }));
    setup();
    await screen.findByRole('list', { name: 'Prêmios a entregar' });
    expect(rows()).toHaveLength(1);
  });

  test('a failed read says so and can be tried again', async () => {
    let fail = true;
    stubFetch(() => (fail ? refusal(403, 'Proibido') : rewardPageAnswer({ data: [vale] })));
    const { user } = setup();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Não foi possível carregar os prêmios a entregar');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Tentar de novo' }));
    expect(await screen.findByRole('list', { name: 'Prêmios a entregar' })).toBeTruthy();
  });

  test('more than a page waiting says how many more', async () => {
    stubFetch(() => rewardPageAnswer({ data: [vale], total: 101 }));
    setup();
    expect(await screen.findByText('E mais 100 em “Ver prêmios deste cliente”.')).toBeTruthy();
  });
});
