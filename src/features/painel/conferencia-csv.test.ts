import { expect, test } from 'vitest';
import type { Achado } from '#contract/api/conferencia';
import { conferenciaCsv } from './conferencia-csv';

const achado: Achado = {
  tipo: 'duplicado',
  celular: '+5511987654321',
  id_cliente: 7,
  nome: '=HYPERLINK("http://x")',
  lancamento: {
    chave: 'k1',
    criado_em: Date.UTC(2026, 10, 21, 13, 0),
    enviado_em: Date.UTC(2026, 10, 21, 13, 0),
    valor_gasto: 123456,
    pontos: 1234,
    terminal: '1',
  },
  servico: { id_cartela_cliente: 99, data: '2026-11-21 10:00:03', pontos: 1234 },
  detalhe: 'O serviço creditou duas vezes esta venda.',
};

test('the findings CSV has our entry and the service’s credit side by side, formulas neutralised', () => {
  const lines = conferenciaCsv([achado])
    .replace(/^\uFEFF/, '')
    .split('\r\n');
  expect(lines[0]).toBe(
    'Achado;Celular;Código do cliente;Cliente;Venda: data e hora;Venda: enviada em;' +
      'Venda: valor (R$);Venda: pontos;Código da venda;Serviço: data e hora;Serviço: pontos;' +
      'Serviço: id_cartela_cliente;Detalhe',
  );
  const cells = lines[1]!.split(';');
  expect(cells[0]).toBe('Creditado duas vezes');
  expect(cells[1]).toBe(`"'+5511987654321"`);
  expect(cells[3]).toBe('"\'=HYPERLINK(""http://x"")"');
  expect(cells[6]).toBe('1234,56');
  expect(cells.slice(9, 12)).toEqual(['21/11/2026 10:00', '1234', '99']);
});
