import { describe, expect, test } from 'vitest';
import {
  ClaimRequest,
  KIOSK_MESSAGES,
  RegisterRequest,
  StageForKioskRequest,
  StageHereRequest,
} from './kiosk';

/** Each field's messages, as the server's 422 lists them. */
const errorsOf = (result: {
  success: boolean;
  error?: { issues: readonly { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('kiosk contract: a staged sale', () => {
  test('a basket that does not add up to the amount is refused at itens', () => {
    const r = StageHereRequest.safeParse({
      valor_gasto: 1000,
      itens: [{ valor: 900 }],
      senha_atendente: '1234',
    });
    expect(errorsOf(r)).toEqual({ itens: KIOSK_MESSAGES.items });
  });

  test('every bad field is reported at once, the basket sum included', () => {
    const r = StageForKioskRequest.safeParse({
      quiosque: 'x',
      valor_gasto: 1000,
      itens: [{ valor: 900 }],
    });
    expect(errorsOf(r)).toEqual({
      itens: KIOSK_MESSAGES.items,
      senha_atendente: KIOSK_MESSAGES.password,
      quiosque: KIOSK_MESSAGES.kiosk,
    });
  });

  test('the amount is whole cents from R$ 0,01 to R$ 100.000,00', () => {
    for (const valor_gasto of [0, 1.5, 10_000_001, '10']) {
      const r = StageHereRequest.safeParse({ valor_gasto, senha_atendente: '1234' });
      expect(errorsOf(r)).toEqual({ valor_gasto: KIOSK_MESSAGES.amount });
    }
    expect(
      StageHereRequest.safeParse({ valor_gasto: 10_000_000, senha_atendente: '1' }).success,
    ).toBe(true);
  });

  test('a bad basket line is refused at its path; unknown keys are dropped', () => {
    const bad = StageHereRequest.safeParse({
      valor_gasto: 100,
      itens: [{ valor: -1, qtde: 0 }],
      senha_atendente: '1234',
    });
    expect(errorsOf(bad)).toEqual({
      'itens.0.qtde': KIOSK_MESSAGES.itemsBad,
      'itens.0.valor': KIOSK_MESSAGES.itemsBad,
    });
    const good = StageHereRequest.parse({
      valor_gasto: 100,
      itens: [{ descricao: 'Pão', qtde: 2, valor: 100, preco: 50 }],
      senha_atendente: '1234',
      extra: true,
    });
    expect(good).toEqual({
      valor_gasto: 100,
      itens: [{ descricao: 'Pão', qtde: 2, valor: 100 }],
      senha_atendente: '1234',
    });
  });
});

describe('kiosk contract: the customer', () => {
  test('a phone is +55 with its area code and 11 digits', () => {
    expect(ClaimRequest.safeParse({ celular: '+5511987654321' }).success).toBe(true);
    for (const celular of ['+551198765432', '11987654321', '+14155550123', 5]) {
      expect(errorsOf(ClaimRequest.safeParse({ celular }))).toEqual({
        celular: KIOSK_MESSAGES.phone,
      });
    }
  });

  test('a name is tidied, blank reads as none, and is at most 120 characters', () => {
    expect(ClaimRequest.parse({ celular: '+5511987654321', nome: '  Ana   Maria ' }).nome).toBe(
      'Ana Maria',
    );
    expect(ClaimRequest.parse({ celular: '+5511987654321', nome: '   ' }).nome).toBeUndefined();
    const long = ClaimRequest.safeParse({ celular: '+5511987654321', nome: 'é'.repeat(121) });
    expect(errorsOf(long)).toEqual({ nome: KIOSK_MESSAGES.name });
  });

  test('registration needs consent', () => {
    const r = RegisterRequest.safeParse({ celular: '+5511987654321', consentimento: false });
    expect(errorsOf(r)).toEqual({ consentimento: KIOSK_MESSAGES.consent });
  });
});
