import { describe, expect, test } from 'vitest';
import { FindCustomerBody, PostPointsBody, RegisterCustomerBody, RewardFilters } from './requests';
import { Customer, PointsResult, RewardPage } from './schemas';
import { REWARD_COUNTER_KEYS } from '#contract/wire';
import { customerWire, rewardPageWire, rewardWire } from '@/testing/fixtures';

describe('Customer', () => {
  test('parses the sandbox customer', () => {
    const c = Customer.parse(customerWire());
    expect(c.nome).toBe('MARIA DA SILVA');
    expect(c.carteira.historico).toHaveLength(1);
    expect(c.conquistados_premio_fidelidade).toBe(0);
  });
  test('there are exactly the 20 counters named <prefix>_<category>', () => {
    expect(REWARD_COUNTER_KEYS).toHaveLength(20);
    expect(REWARD_COUNTER_KEYS).toContain('pendente_resgate_brinde_roleta');
    expect(REWARD_COUNTER_KEYS).toContain('resgatado_premio_game');
    expect(REWARD_COUNTER_KEYS).toContain('expirado_premio_campanha');
  });
  test('a missing counter is rejected', () => {
    const wire = customerWire();
    delete wire.expirado_premio_game;
    expect(Customer.safeParse(wire).success).toBe(false);
  });
  test('tolerates what a live service may send differently', () => {
    const wire = customerWire({ uf: null, cep: null, genero: 'NA', receita: '32.50', extra: 'x' });
    delete wire.cidade;
    delete wire.cpf;
    const c = Customer.parse(wire);
    expect(c.uf).toBeNull();
    expect(c.cidade).toBeNull();
    expect(c.cpf).toBeNull();
    expect(c.genero).toBe('NA');
    expect(c.receita).toBe(32.5);
  });
  test('the registration answer has no historico', () => {
    const wire = customerWire();
    delete (wire.carteira as Record<string, unknown>).historico;
    expect(Customer.parse(wire).carteira.historico).toBeUndefined();
  });
  test('a balance sent as a string is a contract break', () => {
    const wire = customerWire({
      carteira: { ...(customerWire().carteira as object), saldo: '120' },
    });
    expect(Customer.safeParse(wire).success).toBe(false);
  });
});

test('PointsResult reads a missing saldo_carencia as 0', () => {
  expect(PointsResult.parse({ id_cliente: 1, id_ponto: 2, saldo_atual: 30 })).toEqual({
    id_cliente: 1,
    id_ponto: 2,
    saldo_atual: 30,
    saldo_carencia: 0,
  });
  expect(PointsResult.safeParse({ id_cliente: 1, id_ponto: 2, saldo_carencia: 0 }).success).toBe(
    false,
  );
});

describe('RewardPage', () => {
  test('parses a page', () => {
    expect(RewardPage.parse(rewardPageWire()).data[0]?.nome).toBe('Café grátis');
  });
  test('a page past the end has null from/to', () => {
    expect(
      RewardPage.parse(rewardPageWire({ data: [], from: null, to: null, current_page: 9 })).data,
    ).toEqual([]);
  });
  test('an unknown status is rejected', () => {
    expect(
      RewardPage.safeParse(rewardPageWire({ data: [rewardWire({ premio_status: 'cancelado' })] }))
        .success,
    ).toBe(false);
  });
});

describe('request bodies', () => {
  test('FindCustomerBody takes exactly one key', () => {
    expect(FindCustomerBody.safeParse({ celular: '+5511987654321' }).success).toBe(true);
    expect(FindCustomerBody.safeParse({ cpf: '52998224725' }).success).toBe(true);
    expect(FindCustomerBody.safeParse({ id_cliente: 3 }).success).toBe(true);
    expect(FindCustomerBody.safeParse({}).success).toBe(false);
    expect(FindCustomerBody.safeParse({ cpf: '52998224724' }).success).toBe(false);
    expect(FindCustomerBody.safeParse({ celular: '11987654321' }).success).toBe(false);
  });

  test('RegisterCustomerBody limits and formats', () => {
    const ok = {
      celular: '+5511987654321',
      cep: '01310100',
      genero: 'F',
      data_nascimento: '1990-01-15',
    };
    expect(RegisterCustomerBody.safeParse(ok).success).toBe(true);
    const bad = RegisterCustomerBody.safeParse({
      celular: '+5511987654321',
      endereco: 'x'.repeat(101),
      bairro: 'y'.repeat(51),
      genero: 'm',
      data_nascimento: '2024-02-30',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'bairro',
      'data_nascimento',
      'endereco',
      'genero',
    ]);
  });

  test('birth date in the future is refused', () => {
    const r = RegisterCustomerBody.safeParse({
      celular: '+5511987654321',
      data_nascimento: '2999-01-01',
    });
    expect(r.error?.issues[0]?.message).toBe('A data de nascimento não pode estar no futuro.');
  });

  const sale = {
    valor_gasto: 1050,
    senha_atendente: '1234',
    cliente: { celular: '+5511987654321' },
  };

  test('PostPointsBody accepts a sale with a matching basket', () => {
    expect(
      PostPointsBody.safeParse({
        ...sale,
        itens: [{ descricao: 'Café', qtde: 2, valor: 700 }, { valor: 350 }],
      }).success,
    ).toBe(true);
  });
  test('PostPointsBody refuses a basket that does not add up, naming both amounts', () => {
    const r = PostPointsBody.safeParse({ ...sale, itens: [{ valor: 1000 }] });
    expect(r.error?.issues).toEqual([
      expect.objectContaining({
        path: ['itens'],
        message: 'A soma dos itens (R$ 10,00) difere do valor gasto (R$ 10,50).',
      }),
    ]);
  });
  test('PostPointsBody wants integer cents within limits', () => {
    expect(PostPointsBody.safeParse({ ...sale, valor_gasto: 10.5 }).success).toBe(false);
    expect(PostPointsBody.safeParse({ ...sale, valor_gasto: 0 }).success).toBe(false);
    expect(PostPointsBody.safeParse({ ...sale, valor_gasto: 10_000_001 }).success).toBe(false);
    expect(PostPointsBody.safeParse({ ...sale, senha_atendente: '' }).success).toBe(false);
    const item = PostPointsBody.safeParse({ ...sale, itens: [{ valor: 1050, qtde: 0 }] });
    expect(item.error?.issues[0]?.path).toEqual(['itens', 0, 'qtde']);
  });

  test('RewardFilters enums and page size', () => {
    expect(
      RewardFilters.safeParse({
        status: 'resgatado',
        categoria: 'premio_game',
        filtrar_por: 'valido_ate',
      }).success,
    ).toBe(true);
    expect(RewardFilters.safeParse({ status: 'cancelado' }).success).toBe(false);
    expect(RewardFilters.safeParse({ itens_por_pagina: 101 }).success).toBe(false);
    expect(RewardFilters.safeParse({ data_inicio: '2024-02-30' }).success).toBe(false);
  });

  test('RewardFilters refuses a period that ends before it starts', () => {
    expect(
      RewardFilters.safeParse({ data_inicio: '2024-05-01', data_fim: '2024-05-01' }).success,
    ).toBe(true);
    const r = RewardFilters.safeParse({ data_inicio: '2024-05-02', data_fim: '2024-05-01' });
    expect(r.error?.issues[0]).toMatchObject({
      path: ['data_fim'],
      message: 'A data final deve ser igual ou posterior à data inicial.',
    });
  });
});
