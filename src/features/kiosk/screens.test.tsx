import { describe, expect, test } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { KioskCustomer } from '#contract/api/kiosk';
import { CustomerFacts } from './screens';

const customer = (over: Partial<KioskCustomer> = {}): KioskCustomer => ({
  primeiro_nome: 'Maria',
  celular: '+5511987654321',
  saldo: 20,
  saldo_carencia: 0,
  carencia_liberada_em: null,
  proximo_vencimento: null,
  premios_pendentes: [],
  ...over,
});

describe("the kiosk's facts of a customer", () => {
  test('rewards waiting are listed and asked for at the counter; the kiosk has no way to hand one over', () => {
    render(
      <CustomerFacts
        customer={customer({
          premios_pendentes: [
            { nome: 'Vale-compras de R$ 10,00', valido_ate: '2026-12-18 23:59:59' },
          ],
        })}
      />,
    );
    expect(screen.getByText('Vale-compras de R$ 10,00').parentElement?.textContent).toBe(
      'Vale-compras de R$ 10,00, válido até 18/12/2026',
    );
    expect(screen.getByText('Peça no caixa.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('none waiting: nothing to ask for', () => {
    render(<CustomerFacts customer={customer()} />);
    expect(screen.getByText('Nenhum por enquanto')).toBeTruthy();
    expect(screen.queryByText('Peça no caixa.')).toBeNull();
  });
});
