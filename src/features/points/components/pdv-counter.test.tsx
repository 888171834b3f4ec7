import { describe, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PdvSale } from '#contract/api/integracao';
import { Customer } from '@/api/schemas';
import { customerWire } from '@/testing/fixtures';
import type { usePosting } from '@/features/points/use-posting';
import { PdvSalePanel, pdvCounterOf } from './pdv-counter';

const sale = (id: string, over: Partial<PdvSale> = {}): PdvSale => ({
  id,
  id_venda: `NFCE-${id}`,
  estado: 'aguardando',
  valor_gasto: 4590,
  itens: [
    { descricao: 'Café', qtde: 2, valor: 900 },
    { descricao: 'Pão de queijo', valor: 3690 },
  ],
  quantidade_itens: 3,
  criado_em: `2026-11-23T12:00:0${id}.000Z`,
  expira_em: '2026-11-23T12:10:00.000Z',
  pontos: null,
  premios: [],
  cliente: null,
  mensagem: null,
  automatica: false,
  balcao: 4,
  lancamento: null,
  ...over,
});

const mapOf = (...sales: PdvSale[]) => new Map(sales.map((s) => [s.id, s]));
const resumo = { total: 20, pontuadas: 14, nao_identificadas: 3, em_aberto: 3, canceladas: 1 };

describe('pdvCounterOf', () => {
  test('the oldest waiting sale comes first, the others counted behind it', () => {
    const pdv = pdvCounterOf(mapOf(sale('3'), sale('1'), sale('2')), resumo, null);
    expect(pdv.current?.id).toBe('1');
    expect(pdv.others).toBe(2);
    expect(pdv.summary).toBe('Pontuadas 14 de 20 vendas do PDV');
  });

  test('a sale at the kiosk is not the counter’s to post', () => {
    const pdv = pdvCounterOf(mapOf(sale('1', { estado: 'no quiosque' }), sale('2')), null, null);
    expect(pdv.current?.id).toBe('2');
    expect(pdv.others).toBe(0);
    expect(pdv.summary).toBeNull();
  });

  test('the sale this counter is posting stays current while it is being posted', () => {
    const pdv = pdvCounterOf(mapOf(sale('1'), sale('2', { estado: 'lançando' })), resumo, '2');
    expect(pdv.current?.id).toBe('2');
    expect(pdv.others).toBe(1);
  });

  test('no sales, no notice; a day without PDV sales says nothing', () => {
    const pdv = pdvCounterOf(mapOf(), { ...resumo, total: 0, pontuadas: 0 }, null);
    expect(pdv).toEqual({ current: null, others: 0, summary: null });
  });
});

function posting(over: Partial<ReturnType<typeof usePosting>> = {}) {
  return {
    phase: { name: 'editing' },
    post: vi.fn(async () => null),
    verify: vi.fn(),
    reset: vi.fn(),
    locked: false,
    ...over,
  } as ReturnType<typeof usePosting>;
}

describe('PdvSalePanel', () => {
  const maria = Customer.parse(customerWire());

  test('shows the PDV amount and basket read only; Enter posts it for the customer found', async () => {
    const p = posting();
    let button: HTMLElement | null = null;
    render(
      <PdvSalePanel
        sale={sale('1')}
        customer={maria}
        celular={null}
        password="1234"
        posting={p}
        focusRef={(el) => {
          button = el;
          el?.focus();
        }}
        onManual={() => undefined}
      />,
    );
    expect(screen.getByText(/^R\$\s45,90$/, { selector: 'p' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Pão de queijo' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull(); // nothing to type
    expect(button).not.toBeNull();
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    expect(p.post).toHaveBeenCalledTimes(1);
    expect(p.post).toHaveBeenCalledWith(
      {
        valor_gasto: 4590,
        senha_atendente: '1234',
        cliente: { celular: maria.celular },
        itens: sale('1').itens,
      },
      expect.objectContaining({ id_cliente: maria.id_cliente }),
      '1',
    );
  });

  test('a customer not registered yet is registered with the phone searched', async () => {
    const p = posting();
    render(
      <PdvSalePanel
        sale={sale('1', { itens: [], quantidade_itens: 0 })}
        customer={null}
        celular="+5511912345678"
        password="1234"
        posting={p}
        onManual={() => undefined}
      />,
    );
    expect(screen.getByText(/Cliente novo: será cadastrado/).textContent).toContain(
      '(11) 91234-5678',
    );
    await userEvent.click(screen.getByRole('button', { name: /Lançar R\$/ }));
    expect(p.post).toHaveBeenCalledWith(
      { valor_gasto: 4590, senha_atendente: '1234', cliente: { celular: '+5511912345678' } },
      null,
      '1',
    );
  });
});
