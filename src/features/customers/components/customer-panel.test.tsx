import { describe, expect, test } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Customer, type PointEntry } from '@/api/schemas';
import { REWARD_COUNTER_KEYS } from '#contract/wire';
import { formatDateTime } from '@/lib/dates';
import { CustomerPanel } from './customer-panel';

/** Rows the history shows at first and adds per "Mostrar mais". */
const HISTORY_PAGE = 50;

const TODAY = '2026-03-10';

const entry = (id: number, pontos: number, data: string, data_validade: string): PointEntry => ({
  id_cartela_cliente: id,
  pontos,
  data,
  tipo: 'credito',
  data_validade,
});

/** A customer as the wire sends it, parsed by the app's own schema. */
function customer(
  overrides: Record<string, unknown> = {},
  wallet: Record<string, unknown> = {},
): Customer {
  const counters = Object.fromEntries(REWARD_COUNTER_KEYS.map((k) => [k, 0]));
  return Customer.parse({
    id_cliente: 42,
    nome: 'Ana Souza',
    email: 'ana@exemplo.com.br',
    data_cadastro: '2025-01-02 10:00:00',
    celular: '+5511987654321',
    cpf: '52998224725',
    data_nascimento: null,
    genero: 'F',
    cep: null,
    endereco: null,
    bairro: null,
    cidade: null,
    uf: null,
    carteira: {
      saldo: 1234,
      saldo_carencia: 0,
      pontos_vencidos: [
        entry(1, 30, '2024-01-05 09:00:00', '2025-01-31'),
        entry(2, 12, '2024-02-05 09:00:00', '2025-02-28'),
      ],
      pontos_vencendo: [],
      historico: [],
      ...wallet,
    },
    receita: 32.5,
    compras: 7,
    primeira_compra: '2025-01-02 10:05:00',
    ultima_compra: '2026-03-09 18:45:10',
    ...counters,
    ...overrides,
  });
}

const panel = (name = 'Ana Souza') => screen.getByRole('region', { name });

describe('CustomerPanel', () => {
  test('is a region named by the customer, with the formatted phone and the rewards link', () => {
    render(<CustomerPanel customer={customer()} today={TODAY} />);
    const region = panel();
    expect(within(region).getByRole('heading', { level: 2, name: 'Ana Souza' })).toBeTruthy();
    expect(within(region).getByText('(11) 98765-4321')).toBeTruthy();
    const link = within(region).getByRole('link', { name: 'Ver prêmios deste cliente' });
    expect(link.getAttribute('href')).toBe('/premios?id_cliente=42');
  });

  test('a terminal without the rewards table (a caixa) gets no link to it', () => {
    render(<CustomerPanel customer={customer()} today={TODAY} rewardsLink={false} />);
    expect(within(panel()).queryByRole('link', { name: 'Ver prêmios deste cliente' })).toBeNull();
  });

  test('balance first: who it is and the balances in the first frame, the rest right after', async () => {
    const c = customer({}, { historico: [entry(9, 5, '2026-03-01 10:00:00', '2027-03-31')] });
    render(<CustomerPanel customer={c} today={TODAY} balanceFirst />);
    const region = panel();
    expect(within(region).getByText('Saldo').parentElement!.textContent).toBe('Saldo1.234 pontos');
    expect(within(region).queryByText('Histórico de pontos')).toBeNull();
    expect(within(region).queryByText('Receita')).toBeNull();
    expect(await within(region).findByText('Histórico de pontos')).toBeTruthy();
    expect(within(region).getByText('Receita')).toBeTruthy();
    expect(within(region).getByRole('region', { name: 'Contadores de prêmios' })).toBeTruthy();
    expect(within(region).getByText('+5')).toBeTruthy();
  });

  test('shows the balance, expired total, revenue in R$, purchases and purchase dates', () => {
    render(<CustomerPanel customer={customer()} today={TODAY} />);
    const region = panel();
    const saldo = within(region).getByText('Saldo').parentElement!;
    expect(saldo.textContent).toBe('Saldo1.234 pontos');
    const vencidos = within(region).getByText('Vencidos').parentElement!;
    expect(vencidos.textContent).toBe('Vencidos42 pontos');
    expect(within(region).getByText('R$ 32,50')).toBeTruthy();
    expect(within(region).getByText('Compras').nextElementSibling?.textContent).toBe('7');
    expect(within(region).getByText('Primeira compra').nextElementSibling?.textContent).toBe(
      '02/01/2025',
    );
    expect(within(region).getByText('Última compra').nextElementSibling?.textContent).toBe(
      '09/03/2026 18:45',
    );
  });

  test('points in carência say they are released tomorrow', () => {
    render(<CustomerPanel customer={customer({}, { saldo_carencia: 50 })} today={TODAY} />);
    const carencia = within(panel()).getByText('Em carência').parentElement!;
    expect(carencia.textContent).toContain('50 pontos');
    expect(within(carencia).getByText(/liberados amanhã/)).toBeTruthy();
  });

  test('no carência: zero points and no "liberados amanhã"', () => {
    render(<CustomerPanel customer={customer()} today={TODAY} />);
    const carencia = within(panel()).getByText('Em carência').parentElement!;
    expect(carencia.textContent).toContain('0 pontos');
    expect(screen.queryByText(/liberados amanhã/)).toBeNull();
  });

  test('next expirations: soonest first, three shown, "Ver todas" shows the rest', async () => {
    const vencendo = [
      entry(14, 40, '2025-08-01 10:00:00', '2026-08-31'),
      entry(11, 10, '2025-03-01 10:00:00', '2026-03-31'),
      entry(15, 50, '2025-09-01 10:00:00', '2026-09-30'),
      entry(12, 20, '2025-04-01 10:00:00', '2026-04-30'),
      entry(13, 30, '2025-05-01 10:00:00', '2026-05-31'),
    ];
    render(<CustomerPanel customer={customer({}, { pontos_vencendo: vencendo })} today={TODAY} />);
    const list = screen.getByRole('list', { name: 'Próximos vencimentos' });
    const items = () =>
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(items()).toEqual([
      '10 pontosvencem em 31/03/2026 (em 21 dias)',
      '20 pontosvencem em 30/04/2026 (em 51 dias)',
      '30 pontosvencem em 31/05/2026 (em 82 dias)',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Ver todas (5)' }));
    expect(items()).toHaveLength(5);
    expect(items()[4]).toContain('30/09/2026');
  });

  test('empty lists and a missing historico (registration answer) say so', () => {
    const fresh = customer(
      { compras: 0, receita: 0, primeira_compra: null, ultima_compra: null },
      { saldo: 0, pontos_vencidos: [], pontos_vencendo: [], historico: undefined },
    );
    render(<CustomerPanel customer={fresh} today={TODAY} />);
    expect(screen.getByText('Nenhum ponto a vencer.')).toBeTruthy();
    expect(screen.getByText('Nenhum lançamento de pontos ainda.')).toBeTruthy();
    expect(screen.getByText('Primeira compra').nextElementSibling?.textContent).toBe('—');
    expect(screen.getByText('R$ 0,00')).toBeTruthy();
  });

  test('history is listed newest first', () => {
    const historico = [
      entry(1, 10, '2025-05-01 10:00:00', '2026-05-31'),
      entry(3, 30, '2026-02-01 09:30:00', '2027-02-28'),
      entry(2, 20, '2025-11-15 16:20:00', '2026-11-30'),
    ];
    render(<CustomerPanel customer={customer({}, { historico })} today={TODAY} />);
    const history = screen.getByRole('region', { name: 'Histórico de pontos' });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual([
      '01/02/2026 09:30',
      '15/11/2025 16:20',
      '01/05/2025 10:00',
    ]);
    expect(within(rows[0]!).getByText('+30')).toBeTruthy();
  });

  test('a long history shows its newest page and more on request, newest first', async () => {
    // One entry a minute from 2024-01-01 00:00, given oldest first.
    const at = (i: number) =>
      new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('T', ' ').slice(0, 19);
    const historico = Array.from({ length: 3000 }, (_, i) => entry(i + 1, 1, at(i), '2027-01-31'));
    render(<CustomerPanel customer={customer({}, { historico })} today={TODAY} />);
    const history = screen.getByRole('region', { name: 'Histórico de pontos' });
    const rows = () => within(history).getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(HISTORY_PAGE);
    expect(within(history).getByText(`${HISTORY_PAGE} de 3.000`)).toBeTruthy();
    // Newest first: the last entry given is the newest.
    expect(within(rows()[0]!).getAllByRole('cell')[0]?.textContent).toBe(
      formatDateTime(historico[2999]!.data),
    );
    await userEvent.click(
      within(history).getByRole('button', { name: `Mostrar mais ${HISTORY_PAGE}` }),
    );
    expect(rows()).toHaveLength(2 * HISTORY_PAGE);
    expect(within(rows()[HISTORY_PAGE]!).getAllByRole('cell')[0]?.textContent).toBe(
      formatDateTime(historico[2999 - HISTORY_PAGE]!.data),
    );
  });

  test('the 20 reward counters form a status × category table', () => {
    const c = customer({
      conquistados_premio_fidelidade: 3,
      pendente_resgate_brinde_roleta: 2,
      resgatado_premio_surpresa: 4,
      expirado_premio_game: 1,
      conquistados_premio_campanha: 6,
    });
    render(<CustomerPanel customer={c} today={TODAY} />);
    const table = screen.getByRole('table', { name: /^Prêmios/ });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/\u00ad/g, '')); // soft hyphens only allow a break
    expect(headers).toEqual(['Situação', 'Fidelidade', 'Roleta', 'Surpresa', 'Campanha', 'Game']);
    const row = (label: string) =>
      within(within(table).getByRole('rowheader', { name: label }).closest('tr')!)
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(row('Conquistados')).toEqual(['3', '0', '0', '6', '0']);
    expect(row('Pendentes')).toEqual(['0', '2', '0', '0', '0']);
    expect(row('Resgatados')).toEqual(['0', '0', '4', '0', '0']);
    expect(row('Expirados')).toEqual(['0', '0', '0', '0', '1']);
    expect(within(table).getByText('2 pendentes de resgate')).toBeTruthy();
  });

  test('a name with markup renders as literal text', () => {
    const nome = '<img src=x onerror=alert(1)>';
    const { container } = render(<CustomerPanel customer={customer({ nome })} today={TODAY} />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(nome);
    expect(panel(nome)).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
  });
});
