// The sandbox's 422s where the order of the fields decides the response's `message`: checks
// that need the request (the establishment's password, today's date) or several fields (a
// basket's sum, a date range) take their field's place among the others.
import { describe, expect, test } from 'vitest';
import {
  firstError,
  validateCadastrar,
  validatePontuar,
  validateResgatar,
  type FieldErrors,
} from './validation';
import { validateRewardQuery } from './reward-query';

const ctx = { today: '2026-11-23', checkPassword: (s: string) => s === '1234' };
const errorsOf = (v: { ok: true } | { ok: false; errors: FieldErrors }) => (v.ok ? null : v.errors);

describe('the sandbox validation', () => {
  test('a wrong password is reported in its place, before a wrong customer field', () => {
    const errors = errorsOf(
      validatePontuar(
        { valor_gasto: 1000, senha_atendente: '0000', cliente: { celular: '11987654321' } },
        ctx,
      ),
    )!;
    expect(Object.keys(errors)).toEqual(['senha_atendente', 'cliente.celular']);
    expect(firstError(errors)).toBe('Senha do atendente incorreta.');
  });

  test('the password is checked only once it is a text within its limit', () => {
    const seen: string[] = [];
    const check = (s: string) => (seen.push(s), false);
    const long = 'x'.repeat(101);
    const v = validatePontuar(
      { valor_gasto: 1, senha_atendente: long, cliente: {} },
      {
        ...ctx,
        checkPassword: check,
      },
    );
    expect(errorsOf(v)!.senha_atendente).toEqual([
      'A senha do atendente pode ter no máximo 100 caracteres.',
    ]);
    expect(seen).toEqual([]);
  });

  test('a birth date in the future is reported in its place among the customer fields', () => {
    const errors = errorsOf(
      validateCadastrar(
        { celular: '+5511987654321', data_nascimento: '2026-11-24', cep: '123' },
        '2026-11-23',
      ),
    )!;
    expect(errors).toEqual({
      data_nascimento: ['A data de nascimento não pode estar no futuro.'],
      cep: ['O CEP deve ter 8 dígitos, só números.'],
    });
    expect(Object.keys(errors)).toEqual(['data_nascimento', 'cep']);
    expect(
      validateCadastrar({ celular: '+5511987654321', data_nascimento: '2026-11-23' }, '2026-11-23')
        .ok,
    ).toBe(true);
  });

  test('a basket that does not add up is reported last, even with other fields wrong; a too long list says only that', () => {
    const errors = errorsOf(
      validatePontuar(
        {
          valor_gasto: 1000,
          senha_atendente: '1234',
          cliente: { celular: '+5511987654321', email: 'a@b..c' },
          itens: [{ valor: 400 }, { valor: 500 }],
        },
        ctx,
      ),
    )!;
    expect(Object.keys(errors)).toEqual(['cliente.email', 'itens']);
    expect(errors.itens).toEqual(['A soma dos itens (R$ 9,00) difere do valor gasto (R$ 10,00).']);
    const long = errorsOf(
      validatePontuar(
        {
          valor_gasto: 1000,
          senha_atendente: '1234',
          cliente: { celular: '+5511987654321' },
          itens: Array.from({ length: 201 }, () => ({ valor: 'x' })),
        },
        ctx,
      ),
    )!;
    expect(long).toEqual({ itens: ['A compra pode ter no máximo 200 itens.'] });
  });

  test('an inverted date range is reported on data_fim, before a later wrong parameter', () => {
    const params: Record<string, string> = {
      data_inicio: '2026-06-01',
      data_fim: '2026-05-01',
      page: '0',
    };
    const errors = errorsOf(validateRewardQuery((name) => params[name]))!;
    expect(Object.keys(errors)).toEqual(['data_fim', 'page']);
    expect(firstError(errors)).toBe('A data final não pode ser anterior à data inicial.');
  });

  test('a valid body comes back trimmed, without the fields it did not send', () => {
    const v = validatePontuar(
      {
        valor_gasto: 2590,
        senha_atendente: '1234',
        cliente: { celular: ' +5511987654321 ', nome: '  Maria  ', email: '', extra: 1 },
        itens: [{ descricao: ' Café ', qtde: 2, valor: 2590 }],
      },
      ctx,
    );
    expect(v).toEqual({
      ok: true,
      value: {
        valor_gasto: 2590,
        senha_atendente: '1234',
        cliente: { celular: '+5511987654321', nome: 'Maria' },
        itens: [{ descricao: 'Café', qtde: 2, valor: 2590 }],
      },
    });
  });
});

describe('resgatar-premio validation', () => {
  const check = { checkPassword: (s: string) => s === '1234' };
  const valid = { id_premio: 1, id_cliente: 2, senha_atendente: '1234' };

  test('a valid body gives the ids and the password', () => {
    expect(validateResgatar(valid, check)).toEqual({ ok: true, value: valid });
  });

  test('unknown fields are ignored', () => {
    const v = validateResgatar({ ...valid, id_premio_cliente: 9, quantidade: 2 }, check);
    expect(v).toEqual({ ok: true, value: valid });
  });

  test('every field missing: each says what to send, in field order', () => {
    const errors = errorsOf(validateResgatar({}, check))!;
    expect(errors).toEqual({
      id_premio: ['Informe o prêmio a resgatar.'],
      id_cliente: ['Informe o cliente do prêmio.'],
      senha_atendente: ['Informe a senha do atendente.'],
    });
    expect(firstError(errors)).toBe('Informe o prêmio a resgatar.');
  });

  test('null and an empty password count as not sent', () => {
    const errors = errorsOf(
      validateResgatar({ id_premio: null, id_cliente: null, senha_atendente: '' }, check),
    )!;
    expect(errors.id_premio).toEqual(['Informe o prêmio a resgatar.']);
    expect(errors.senha_atendente).toEqual(['Informe a senha do atendente.']);
  });

  test.each([
    ['a string', '1'],
    ['a fraction', 1.5],
    ['zero', 0],
    ['negative', -3],
    ['beyond safe integers', Number.MAX_SAFE_INTEGER + 2],
    ['infinite', Infinity],
    ['a boolean', true],
    ['a list', [1]],
    ['an object', { id: 1 }],
  ])('an id that is %s is an error on that id only', (_name, bad) => {
    for (const field of ['id_premio', 'id_cliente'] as const) {
      const errors = errorsOf(validateResgatar({ ...valid, [field]: bad }, check))!;
      expect(Object.keys(errors)).toEqual([field]);
      expect(errors[field]![0]).toMatch(/número inteiro positivo/);
    }
  });

  test('a wrong password is reported in its place, after the ids', () => {
    const errors = errorsOf(
      validateResgatar({ id_premio: 'x', id_cliente: 2, senha_atendente: '0000' }, check),
    )!;
    expect(Object.keys(errors)).toEqual(['id_premio', 'senha_atendente']);
    expect(errors.senha_atendente).toEqual(['Senha do atendente incorreta.']);
  });

  test('the password is compared only once it is a text within its limit', () => {
    const seen: unknown[] = [];
    const spy = { checkPassword: (s: string) => (seen.push(s), false) };
    for (const senha of [1234, ['1234'], { s: '1234' }, 'x'.repeat(101), null]) {
      expect(errorsOf(validateResgatar({ ...valid, senha_atendente: senha }, spy))).toHaveProperty(
        'senha_atendente',
      );
    }
    expect(seen).toEqual([]);
  });
});
