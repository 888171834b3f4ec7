import { describe, expect, test } from 'vitest';
import { PostPointsBody } from '@/api/requests';
import {
  basketTotal,
  blockReason,
  emptyLine,
  lineTotal,
  saleFieldFor,
  saleSchema,
  toItems,
  toPointsBody,
  type BasketLine,
} from './sale-schema';
import { testEachTable } from '@/testing/cases';

const line = (over: Partial<BasketLine> = {}): BasketLine => ({ ...emptyLine, ...over });

describe('blockReason: why the post button is still disabled', () => {
  test('no amount typed yet', () => {
    expect(blockReason(0, [])).toBe('Digite o valor da compra.');
  });

  test('an amount above R$ 100.000,00', () => {
    expect(blockReason(10_000_001, [])).toBe('O valor máximo é R$ 100.000,00.');
  });

  test('an amount without a basket can be posted', () => {
    expect(blockReason(1050, [])).toBeNull();
    expect(blockReason(10_000_000, [])).toBeNull();
  });

  test('a basket short of the amount says how much is missing', () => {
    expect(blockReason(3000, [line({ qtde: '2', unit: 800 })])).toBe(
      'Faltam R$ 14,00 nos itens para fechar o valor da compra.',
    );
  });

  test('a basket over the amount says by how much', () => {
    expect(blockReason(3000, [line({ qtde: '2', unit: 800 }), line({ unit: 1500 })])).toBe(
      'Os itens passam R$ 1,00 do valor da compra.',
    );
  });

  test('a basket that adds up to the amount can be posted', () => {
    expect(blockReason(3100, [line({ qtde: '2', unit: 800 }), line({ unit: 1500 })])).toBeNull();
  });

  test.each(['0', '', '1,5', '-1', 'dois', '1234567'])(
    'a quantity of "%s" blocks with its own message',
    (qtde) => {
      expect(blockReason(800, [line({ qtde, unit: 800 })])).toBe(
        'Corrija a quantidade dos itens (número inteiro, 1 ou mais).',
      );
    },
  );

  test('the missing amount is reported before the basket', () => {
    expect(blockReason(0, [line({ qtde: '0', unit: 100 })])).toBe('Digite o valor da compra.');
  });
});

describe('line and basket totals', () => {
  test('a line is unit price × quantity; spaces around the quantity are fine', () => {
    expect(lineTotal({ qtde: ' 3 ', unit: 350 })).toBe(1050);
  });

  test('a line with a bad quantity has no total and adds nothing to the basket', () => {
    expect(lineTotal({ qtde: 'x', unit: 350 })).toBeNull();
    expect(basketTotal([line({ qtde: 'x', unit: 350 }), line({ qtde: '2', unit: 100 })])).toBe(200);
  });
});

describe('toItems: basket lines as the wire wants them', () => {
  test('each line is sent as its line total, with the quantity', () => {
    expect(
      toItems([
        line({ descricao: 'Café', qtde: '2', unit: 800 }),
        line({ descricao: 'Pão de queijo', unit: 1500 }),
      ]),
    ).toEqual([
      { descricao: 'Café', qtde: 2, valor: 1600 },
      { descricao: 'Pão de queijo', qtde: 1, valor: 1500 },
    ]);
  });

  test('blank description and complement are left out, texts are trimmed', () => {
    const [blank, filled] = toItems([
      line({ descricao: '   ', complemento: '', qtde: '1', unit: 500 }),
      line({ descricao: '  Refrigerante lata ', complemento: ' 350 ml ', qtde: '3', unit: 450 }),
    ]);
    expect(blank).toEqual({ qtde: 1, valor: 500 });
    expect(blank).not.toHaveProperty('descricao');
    expect(blank).not.toHaveProperty('complemento');
    expect(filled).toEqual({
      descricao: 'Refrigerante lata',
      complemento: '350 ml',
      qtde: 3,
      valor: 1350,
    });
  });
});

describe('toPointsBody', () => {
  test('amount in cents, password, customer and the basket as line totals', () => {
    expect(
      toPointsBody(
        { valor: 1350, itens: [line({ descricao: 'Refrigerante', qtde: '3', unit: 450 })] },
        { celular: '+5511987654321' },
        '1234',
      ),
    ).toEqual({
      valor_gasto: 1350,
      senha_atendente: '1234',
      cliente: { celular: '+5511987654321' },
      itens: [{ descricao: 'Refrigerante', qtde: 3, valor: 1350 }],
    });
  });

  test('an empty basket sends no itens at all', () => {
    const body = toPointsBody({ valor: 2590, itens: [] }, { celular: '+5511987654321' }, '1234');
    expect(body).toEqual({
      valor_gasto: 2590,
      senha_atendente: '1234',
      cliente: { celular: '+5511987654321' },
    });
    expect(body).not.toHaveProperty('itens');
  });

  test('a new customer’s registration fields travel inside cliente', () => {
    const cliente = { celular: '+5511912345678', nome: 'Ana Souza', cpf: '52998224725' };
    expect(toPointsBody({ valor: 500, itens: [] }, cliente, '4321').cliente).toEqual(cliente);
  });

  test('what the sale form builds is a body the points operation accepts (the wire contract)', () => {
    const cliente = { celular: '+5511912345678', nome: 'Ana Souza', cpf: '52998224725' };
    const sales = [
      { valor: 2590, itens: [] },
      {
        valor: 1350,
        itens: [
          line({ descricao: 'Refrigerante', complemento: 'lata', qtde: '2', unit: 450 }),
          line({ qtde: '1', unit: 450 }),
        ],
      },
    ];
    for (const sale of sales) {
      const parsed = PostPointsBody.safeParse(toPointsBody(sale, cliente, '1234'));
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
  });

  test('the contract refuses a basket whose lines do not add up to the amount', () => {
    const body = toPointsBody(
      { valor: 1000, itens: [line({ qtde: '2', unit: 450 })] },
      { celular: '+5511987654321' },
      '1234',
    );
    const parsed = PostPointsBody.safeParse(body);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['itens']);
  });
});

describe('saleFieldFor: where a service field error lands in the sale form', () => {
  testEachTable([
    ['valor_gasto lands on the amount', saleFieldFor, [['valor_gasto', 'valor']]],
    [
      'itens.N.valor lands on that line’s unit price',
      saleFieldFor,
      [
        ['itens.2.valor', 'itens.2.unit'],
        ['itens.0.valor', 'itens.0.unit'],
      ],
    ],
    [
      'the other item fields keep their name on the right line',
      saleFieldFor,
      [
        ['itens.1.qtde', 'itens.1.qtde'],
        ['itens.12.descricao', 'itens.12.descricao'],
        ['itens.3.complemento', 'itens.3.complemento'],
      ],
    ],
    [
      'an error on the basket as a whole lands above the basket',
      saleFieldFor,
      [['itens', 'itens.root']],
    ],
    [
      'paths the sale form does not own are left to others',
      saleFieldFor,
      [
        ['cliente.celular', null],
        ['senha_atendente', null],
        ['itens.2.preco', null],
        ['itens.x.valor', null],
      ],
    ],
  ]);
});

describe('saleSchema', () => {
  test('a basket that does not add up is an error on itens with a cashier’s message', () => {
    const result = saleSchema.safeParse({ valor: 3000, itens: [line({ qtde: '2', unit: 800 })] });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['itens'],
        message: 'A soma dos itens precisa ser igual ao valor da compra.',
      }),
    ]);
  });

  test('a bad quantity is an error on that line’s quantity', () => {
    const result = saleSchema.safeParse({ valor: 100, itens: [line(), line({ qtde: '0' })] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([
      'itens.1.qtde',
      'Quantidade: número inteiro, 1 ou mais.',
    ]);
  });

  test('no amount is an error on valor', () => {
    const result = saleSchema.safeParse({ valor: 0, itens: [] });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['valor', 'Digite o valor da compra.'],
    ]);
  });
});
