import { describe, expect, test } from 'vitest';
import {
  ApiError,
  DEFAULT_MESSAGES,
  isServiceUnavailable,
  kindForStatus,
  normalizeFieldPath,
  toApiError,
} from './errors';

const json = (v: unknown) => JSON.stringify(v);
/** toApiError of a refusal in the service's shape: `success: false`, its message, `data`, `errors`. */
const refused = (
  status: number,
  message: string,
  extra: { data?: unknown; errors?: Record<string, string[]> } = {},
) => toApiError(status, json({ success: false, message, data: {}, ...extra }));

describe('status → kind', () => {
  test.each([
    [400, 'validation'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'conflict'],
    [413, 'validation'],
    [422, 'validation'],
    [429, 'rate_limited'],
    [500, 'server'],
    [502, 'network'],
    [503, 'server'],
    [504, 'timeout'],
    [200, 'contract'],
    [405, 'validation'],
    [408, 'timeout'],
  ] as const)('%i → %s', (status, kind) => {
    expect(kindForStatus(status)).toBe(kind);
    expect(toApiError(status, '').kind).toBe(kind);
  });
});

describe('requestMayHaveReached', () => {
  test.each([
    [502, true],
    [504, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
    [409, false],
    [422, false],
    [429, false],
    [408, false],
  ] as const)('%i → %s', (status, reached) => {
    expect(toApiError(status, '').requestMayHaveReached).toBe(reached);
  });
  test('timeout and network errors built without a status may have reached', () => {
    expect(new ApiError({ kind: 'timeout' }).requestMayHaveReached).toBe(true);
    expect(new ApiError({ kind: 'network' }).requestMayHaveReached).toBe(true);
    expect(
      new ApiError({ kind: 'network', requestMayHaveReached: false }).requestMayHaveReached,
    ).toBe(false);
  });
});

describe('the three error shapes', () => {
  test('sandbox: { success:false, message, data, errors }', () => {
    const e = refused(422, 'O celular deve estar no formato E.164.', {
      errors: {
        'cliente.celular': ['O celular deve estar no formato E.164.'],
        'itens.2.valor': ['Valor inválido.'],
      },
    });
    expect(e).toBeInstanceOf(ApiError);
    expect(e.kind).toBe('validation');
    expect(e.status).toBe(422);
    expect(e.message).toBe('O celular deve estar no formato E.164.');
    expect(e.fieldErrors).toEqual({
      'cliente.celular': ['O celular deve estar no formato E.164.'],
      'itens.2.valor': ['Valor inválido.'],
    });
    expect(e.fieldError('itens.2.valor')).toBe('Valor inválido.');
    expect(e.data).toEqual({});
  });

  test('legacy: { error:true, messages:{ field:[...] } }', () => {
    const e = toApiError(
      422,
      json({ error: true, messages: { senha_atendente: ['Senha do atendente incorreta.'] } }),
    );
    expect(e.kind).toBe('validation');
    expect(e.message).toBe('Senha do atendente incorreta.');
    expect(e.fieldErrors).toEqual({ senha_atendente: ['Senha do atendente incorreta.'] });
  });

  test('legacy with a string message list', () => {
    const e = toApiError(404, json({ error: true, messages: 'Cliente não encontrado' }));
    expect(e.kind).toBe('not_found');
    expect(e.message).toBe('Cliente não encontrado');
    expect(e.fieldErrors).toEqual({});
  });

  test('Laravel: { message, errors } prefers the first field error over the English summary', () => {
    const e = toApiError(
      422,
      json({
        message: 'The given data was invalid.',
        errors: {
          valor_gasto: 'O valor gasto é obrigatório.',
          'itens[0].qtde': ['Quantidade mínima: 1.'],
        },
      }),
    );
    expect(e.message).toBe('O valor gasto é obrigatório.');
    expect(e.fieldErrors).toEqual({
      valor_gasto: ['O valor gasto é obrigatório.'],
      'itens.0.qtde': ['Quantidade mínima: 1.'],
    });
  });

  test('a message given as an array uses its first entry', () => {
    expect(toApiError(409, json({ message: ['Cliente já cadastrado.', 'outro'] })).message).toBe(
      'Cliente já cadastrado.',
    );
  });
});

describe('messages for people', () => {
  test('404 and 409 keep the server message; 409 carries data', () => {
    const e = refused(409, 'Cliente já cadastrado.', { data: { id_cliente: 7 } });
    expect(e.kind).toBe('conflict');
    expect(e.message).toBe('Cliente já cadastrado.');
    expect(e.data).toEqual({ id_cliente: 7 });
    expect(refused(404, 'Cliente não encontrado').message).toBe('Cliente não encontrado');
  });
  test('401, 403, 500 use our own message, not a technical one', () => {
    expect(refused(401, 'Unauthenticated.').message).toBe(DEFAULT_MESSAGES.unauthorized);
    expect(toApiError(403, json({ message: 'Forbidden' })).message).toBe(
      DEFAULT_MESSAGES.forbidden,
    );
    expect(toApiError(500, json({ message: 'SQLSTATE[42S02]' })).message).toBe(
      DEFAULT_MESSAGES.server,
    );
  });
  test('502 reads as a connection problem for the cashier', () => {
    expect(toApiError(502, '<html>Bad Gateway</html>').message).toBe(
      'Sem conexão com o serviço de fidelidade. Verifique a rede e tente novamente.',
    );
  });
  test('429 of a password lock keeps the server message with the time left; another 429 does not', () => {
    const lock = refused(
      429,
      'Senha do atendente bloqueada neste terminal. Tente novamente em 4 min 10 s.',
      { data: { bloqueado_ate: '2026-11-23T12:00:00.000Z', segundos_restantes: 250 } },
    );
    expect(lock.message).toBe(
      'Senha do atendente bloqueada neste terminal. Tente novamente em 4 min 10 s.',
    );
    expect(toApiError(429, json({ message: 'Too Many Attempts.' })).message).toBe(
      DEFAULT_MESSAGES.rate_limited,
    );
  });
  test('413 explains the basket is too big', () => {
    expect(toApiError(413, '').message).toBe('A venda tem itens demais para enviar de uma vez.');
  });
});

describe('bodies that are not the expected JSON', () => {
  test('non-JSON body', () => {
    const e = toApiError(500, '<html><body>Internal Server Error</body></html>');
    expect(e.kind).toBe('server');
    expect(e.message).toBe(DEFAULT_MESSAGES.server);
    expect(e.fieldErrors).toEqual({});
    expect(e.data).toBeNull();
    expect(e.cause).toBe('<html><body>Internal Server Error</body></html>');
  });
  test('empty body', () => {
    const e = toApiError(404, '');
    expect(e.kind).toBe('not_found');
    expect(e.message).toBe(DEFAULT_MESSAGES.not_found);
  });
  test('JSON that is not an object', () => {
    expect(toApiError(422, '"erro"').message).toBe(DEFAULT_MESSAGES.validation);
    expect(toApiError(422, 'null').fieldErrors).toEqual({});
    expect(toApiError(422, '[1,2]').fieldErrors).toEqual({});
  });
  test('field errors that are not strings are dropped', () => {
    expect(
      toApiError(422, json({ errors: { a: [1, null], b: ['ok'], c: '' } })).fieldErrors,
    ).toEqual({ b: ['ok'] });
  });
});

test('normalizeFieldPath turns brackets into dots', () => {
  expect(normalizeFieldPath('itens[2].valor')).toBe('itens.2.valor');
  expect(normalizeFieldPath('cliente.celular')).toBe('cliente.celular');
});

test('every kind has a Portuguese default message', () => {
  for (const message of Object.values(DEFAULT_MESSAGES)) expect(message.length).toBeGreaterThan(5);
  expect(new ApiError({ kind: 'timeout' }).message).toBe(DEFAULT_MESSAGES.timeout);
  expect(new ApiError({ kind: 'timeout' }).name).toBe('ApiError');
});

test('the service is unavailable on no answer and on 502/503/504, not on what it answered', () => {
  const contingency = refused(503, 'Serviço de fidelidade indisponível — modo contingência');
  expect(isServiceUnavailable(contingency)).toBe(true);
  expect(isServiceUnavailable(toApiError(502, ''))).toBe(true);
  expect(isServiceUnavailable(toApiError(504, ''))).toBe(true);
  expect(isServiceUnavailable(new ApiError({ kind: 'network' }))).toBe(true);
  expect(isServiceUnavailable(new ApiError({ kind: 'timeout' }))).toBe(true);
  for (const status of [500, 401, 403, 404, 422, 429, 200])
    expect(isServiceUnavailable(toApiError(status, ''))).toBe(false);
});
