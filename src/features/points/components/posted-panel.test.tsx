import { afterEach, describe, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RewardRecord } from '@/api/schemas';
import { rewardWire } from '@/testing/fixtures';
import type { Posted } from '@/features/points/posting-types';
import { PostedPanel, type PostedHandOver } from './posted-panel';

afterEach(() => vi.restoreAllMocks());

const vale = RewardRecord.parse(
  rewardWire({ id_premio_cliente: 4, id_premio: 3, nome: 'Vale-compras de R$ 10,00' }),
);

const posted = (over: Partial<Posted> = {}): Posted => ({
  saleId: '8f6c2a3e-0000-4000-8000-000000000001',
  id_cliente: 42,
  id_ponto: 777,
  saldo_atual: 0,
  saldo_carencia: 0,
  valor: 2590,
  pontos: 25,
  at: new Date('2026-11-23T15:00:00Z'),
  verified: false,
  rewards: { state: 'done', count: 1, names: [vale.nome], records: [vale] },
  ...over,
});

function setup(p: Posted, handOver?: PostedHandOver) {
  render(
    <PostedPanel
      posted={p}
      kept={null}
      customerName="Maria da Silva"
      celular="+5511987654321"
      establishment="Loja Demo"
      onNext={() => {}}
      handOver={handOver}
    />,
  );
  return userEvent.setup();
}

describe('PostedPanel', () => {
  test('says what this purchase earned, on screen and on the slip', () => {
    setup(posted());
    expect(screen.getByTestId('earned-points').textContent).toBe('+25 pontos nesta compra');
    expect(screen.getByTestId('new-balance').textContent).toBe('0 pontos');
    const slip = screen.getByTestId('slip').textContent ?? '';
    expect(slip).toContain('Valor da compra: R$ 25,90');
    expect(slip).toContain('Pontos nesta compra: +25 pontos');
    expect(slip).toContain('Saldo: 0 pontos');
  });

  test('one point reads in the singular', () => {
    setup(posted({ pontos: 1 }));
    expect(screen.getByTestId('earned-points').textContent).toBe('+1 ponto nesta compra');
  });

  test('a purchase below a point says it earned none', () => {
    setup(posted({ pontos: 0, rewards: { state: 'done', count: 0, names: [], records: [] } }));
    expect(screen.getByTestId('earned-points').textContent).toBe('Nenhum ponto nesta compra');
    expect(screen.getByTestId('slip').textContent).toContain('Pontos nesta compra: 0 pontos');
  });

  test('while the points are not known neither the result nor the slip invents them', () => {
    setup(posted({ pontos: null }));
    expect(screen.queryByTestId('earned-points')).toBeNull();
    expect(screen.getByTestId('slip').textContent).not.toContain('Pontos nesta compra');
  });

  test('a reward won offers "Entregar agora" for it', async () => {
    const onHandOver = vi.fn();
    const user = setup(posted(), { handed: new Set(), onHandOver });
    expect(screen.getByRole('alert').textContent).toContain('O cliente ganhou um prêmio!');
    await user.click(
      screen.getByRole('button', { name: 'Entregar agora Vale-compras de R$ 10,00' }),
    );
    expect(onHandOver).toHaveBeenCalledWith(
      {
        customer: { id_cliente: 42, nome: 'Maria da Silva', celular: '+5511987654321' },
        reward: {
          id_premio: 3,
          id_premio_cliente: 4,
          nome: 'Vale-compras de R$ 10,00',
          categoria_premio: 'premio_fidelidade',
          valido_ate: vale.valido_ate,
        },
      },
      expect.any(HTMLButtonElement),
    );
  });

  test('once handed over it says so; where the counter does not hand over there is no button', () => {
    setup(posted(), { handed: new Set([4]), onHandOver: vi.fn() });
    expect(screen.getByText('✓ Entregue')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Entregar agora/ })).toBeNull();
  });

  test('without hand-overs the reward is listed, with no button', () => {
    setup(posted());
    expect(screen.getByRole('alert').textContent).toContain('Vale-compras de R$ 10,00');
    expect(screen.queryByRole('button', { name: /Entregar agora/ })).toBeNull();
  });
});
