import { describe, expect, test } from 'vitest';
import { PostPointsBody, RegisterCustomerBody } from '@/api/requests';
import { todayInSaoPaulo } from '@/lib/dates';
import { expectEach } from '@/testing/cases';
import {
  CUSTOMER_MESSAGES,
  customerFieldsSchema,
  emptyCustomerValues,
  serverPathToField,
  toRegisterBody,
  type CustomerFormValues,
} from './customer-schema';

const valid: CustomerFormValues = { ...emptyCustomerValues, celular: '(11) 98765-4321' };

/** The first message per field of a parse of `valid` with `patch` applied. */
function errorsOf(patch: Partial<CustomerFormValues>): Record<string, string> {
  const result = customerFieldsSchema.safeParse({ ...valid, ...patch });
  const out: Record<string, string> = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path.join('.');
      out[key] ??= issue.message;
    }
  }
  return out;
}

/**
 * `field` typed as each of `accepted` passes; typed as each of `refused`, it alone fails with
 * `message`. Every value is checked at once (the table shows each answer beside its input).
 */
function expectField(
  field: keyof CustomerFormValues,
  cases: { accepted?: readonly string[]; refused?: readonly string[]; message?: string },
): void {
  const { accepted = [], refused = [], message } = cases;
  expectEach(
    (typed: string) => errorsOf({ [field]: typed }),
    [
      ...accepted.map((typed) => [typed, {}] as const),
      ...refused.map((typed) => [typed, { [field]: message }] as const),
    ],
  );
}

function shiftDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

describe('customerFieldsSchema', () => {
  test('only the celular is required: every other field may be blank', () => {
    expect(errorsOf({})).toEqual({});
  });

  test('a blank celular is refused with a message', () => {
    expect(errorsOf({ celular: '' })).toEqual({ celular: 'Informe o número do celular.' });
  });

  test.each(['(11) 98765-4321', '11987654321', '+55 11 98765-4321', '+5511987654321'])(
    'celular typed as %s is accepted',
    (celular) => {
      expect(errorsOf({ celular })).toEqual({});
    },
  );

  test('a landline is refused as celular with the reason', () => {
    expect(errorsOf({ celular: '(11) 3456-7890' }).celular).toMatch(/fixo/i);
  });

  test('CPF with valid check digits is accepted, with or without punctuation', () => {
    expectField('cpf', { accepted: ['529.982.247-25', '52998224725'] });
  });

  test('CPF with all-equal digits or wrong check digits is refused', () => {
    expectField('cpf', {
      refused: ['111.111.111-11', '529.982.247-24'],
      message: CUSTOMER_MESSAGES.cpfCheck,
    });
  });

  test('an incomplete CPF says it needs 11 digits', () => {
    expectField('cpf', { refused: ['529.982.247'], message: CUSTOMER_MESSAGES.cpfLength });
  });

  test('CEP must have 8 digits, with or without the hyphen', () => {
    expectField('cep', {
      accepted: ['01310-100', '01310100'],
      refused: ['01310-10', '013101000'],
      message: CUSTOMER_MESSAGES.cep,
    });
  });

  test('bairro of 50 characters is accepted, 51 is refused (never cut)', () => {
    expectField('bairro', {
      accepted: ['b'.repeat(50)],
      refused: ['b'.repeat(51)],
      message: CUSTOMER_MESSAGES.bairro,
    });
  });

  test('endereco of 101 characters is refused', () => {
    expectField('endereco', {
      accepted: ['e'.repeat(100)],
      refused: ['e'.repeat(101)],
      message: CUSTOMER_MESSAGES.endereco,
    });
  });

  test('birth date: today is accepted, tomorrow is refused as future, 2023-02-29 as not real', () => {
    const today = todayInSaoPaulo();
    expect(errorsOf({ data_nascimento: '1990-05-17' })).toEqual({});
    expect(errorsOf({ data_nascimento: today })).toEqual({});
    expect(errorsOf({ data_nascimento: shiftDays(today, 1) })).toEqual({
      data_nascimento: CUSTOMER_MESSAGES.dateFuture,
    });
    expect(errorsOf({ data_nascimento: '2023-02-29' })).toEqual({
      data_nascimento: CUSTOMER_MESSAGES.dateInvalid,
    });
  });

  test('UF must be one of the 27 siglas', () => {
    expectField('estado', {
      accepted: ['SP', 'DF'],
      refused: ['XX', 'São Paulo'],
      message: CUSTOMER_MESSAGES.estado,
    });
  });

  test('e-mail format and genero M/F', () => {
    expect(errorsOf({ email: 'ana@exemplo.com.br', genero: 'F' })).toEqual({});
    expect(errorsOf({ email: 'ana@exemplo' })).toEqual({ email: CUSTOMER_MESSAGES.email });
    expect(errorsOf({ genero: 'X' })).toEqual({ genero: CUSTOMER_MESSAGES.genero });
  });

  test('an e-mail the service refuses is refused here too: an empty domain label', () => {
    for (const email of ['a@b..c', 'a@.b.c', 'a@b.c.', 'a@b'])
      expect(errorsOf({ email }), email).toEqual({ email: CUSTOMER_MESSAGES.email });
    expect(errorsOf({ email: 'a@b.c.d' })).toEqual({});
  });

  test("nome, e-mail and cidade stop at the service's limits (120, 120, 60 characters)", () => {
    const at = (n: number) => 'á'.repeat(n);
    const email = (n: number) => `${'a'.repeat(n - '@exemplo.com.br'.length)}@exemplo.com.br`;
    expect(errorsOf({ nome: at(120), email: email(120), cidade: at(60) })).toEqual({});
    expect(errorsOf({ nome: at(121), email: email(121), cidade: at(61) })).toEqual({
      nome: CUSTOMER_MESSAGES.nome,
      email: CUSTOMER_MESSAGES.emailMax,
      cidade: CUSTOMER_MESSAGES.cidade,
    });
  });

  test.each([
    ['NUL', 'Ana\u0000Lima'],
    ['a lone high surrogate', 'Ana \uD83D'],
    ['a lone low surrogate', '\uDE00Ana'],
    ['zero-width characters only', '\u200B\u200C\u200D\u2060'],
    ['a C0 control character (ESC)', 'Ana\u001B[2JLima'],
    ['a C1 control character', 'Ana\u0085Lima'],
  ])("a nome with %s is refused with the service's message", (_name, nome) => {
    expect(errorsOf({ nome })).toEqual({ nome: 'O nome tem caracteres inválidos.' });
  });

  test('the other free-text fields refuse odd text the same way, each with its message', () => {
    expect(
      errorsOf({
        email: 'ana\u0000@exemplo.com.br',
        endereco: 'Rua A\u0007, 10',
        bairro: '\u200B',
        cidade: 'São\u0085Paulo',
      }),
    ).toEqual({
      email: 'O e-mail tem caracteres inválidos.',
      endereco: 'O endereço tem caracteres inválidos.',
      bairro: 'O bairro tem caracteres inválidos.',
      cidade: 'A cidade tem caracteres inválidos.',
    });
  });

  test.each(['José D’Ávila', "Joana D'Arc", 'Nguyễn Thị', 'Ana 😀 👩‍👩‍👧', 'نامه‌ای'])(
    'the name %j is accepted',
    (nome) => {
      expect(errorsOf({ nome })).toEqual({});
    },
  );

  test('output is the wire body (what the resolver hands to onSubmit)', () => {
    const result = customerFieldsSchema.safeParse({
      ...valid,
      cpf: '529.982.247-25',
      cep: '01310-100',
    });
    expect(result.success && result.data).toEqual({
      celular: '+5511987654321',
      cpf: '52998224725',
      cep: '01310100',
    });
  });
});

describe('toRegisterBody', () => {
  test('only the celular, as E.164, when everything else is blank', () => {
    expect(toRegisterBody({ ...emptyCustomerValues, celular: '(11) 98765-4321' })).toEqual({
      celular: '+5511987654321',
    });
  });

  test('every field filled: digits for cpf/cep, trimmed text, wire names', () => {
    expect(
      toRegisterBody({
        celular: '11 98765-4321',
        cpf: '529.982.247-25',
        nome: '  Ana Souza ',
        email: ' ana@exemplo.com.br',
        data_nascimento: '1990-05-17',
        genero: 'F',
        cep: '01310-100',
        endereco: 'Av. Paulista, 1000',
        bairro: 'Bela Vista',
        cidade: 'São Paulo',
        estado: 'SP',
      }),
    ).toEqual({
      celular: '+5511987654321',
      cpf: '52998224725',
      nome: 'Ana Souza',
      email: 'ana@exemplo.com.br',
      data_nascimento: '1990-05-17',
      genero: 'F',
      cep: '01310100',
      endereco: 'Av. Paulista, 1000',
      bairro: 'Bela Vista',
      cidade: 'São Paulo',
      estado: 'SP',
    });
  });

  test('what the form builds is a body registration and posting accept (the wire contract)', () => {
    const full: CustomerFormValues = {
      celular: '(21) 99876-5432',
      cpf: '529.982.247-25',
      nome: 'Ana Souza',
      email: 'ana@exemplo.com.br',
      data_nascimento: '1990-05-17',
      genero: 'M',
      cep: '20040-020',
      endereco: 'Rua da Assembleia, 10',
      bairro: 'Centro',
      cidade: 'Rio de Janeiro',
      estado: 'RJ',
    };
    for (const values of [full, valid]) {
      const parsed = customerFieldsSchema.parse(values);
      expect(RegisterCustomerBody.safeParse(parsed).error?.issues ?? []).toEqual([]);
      const points = { valor_gasto: 100, senha_atendente: '1234', cliente: parsed };
      expect(PostPointsBody.safeParse(points).error?.issues ?? []).toEqual([]);
    }
  });

  test('whitespace-only fields are omitted', () => {
    const body = toRegisterBody({
      ...emptyCustomerValues,
      celular: '11987654321',
      nome: '   ',
      cidade: ' ',
    });
    expect(body).toEqual({ celular: '+5511987654321' });
    expect('nome' in body).toBe(false);
  });

  test('is idempotent: a body maps to itself', () => {
    const body = toRegisterBody({
      ...valid,
      cpf: '529.982.247-25',
      cep: '01310-100',
      estado: 'RJ',
    });
    expect(toRegisterBody(body)).toEqual(body);
  });
});

describe('serverPathToField', () => {
  test.each([
    ['celular', 'celular'],
    ['cliente.celular', 'celular'],
    ['cliente.cpf', 'cpf'],
    ['estado', 'estado'],
    ['uf', 'estado'],
    ['cliente.estado', 'estado'],
    ['bairro', 'bairro'],
    ['valor_gasto', null],
    ['itens.2.valor', null],
    ['senha_atendente', null],
  ])('%s → %s', (path, field) => {
    expect(serverPathToField(path)).toBe(field);
  });
});
