import { expect, test } from 'vitest';
import * as z from 'zod/mini';
import { issuesToFieldMessages, zodResolver } from './zod-resolver';

const schema = z.object({
  valor: z.pipe(
    z.string(),
    z.transform((v) => Number(v.replace(/\D/g, ''))),
  ),
  cliente: z.object({
    celular: z.string().check(z.minLength(1, 'Informe o celular.'), z.regex(/^\+/, 'Use +55.')),
  }),
  itens: z.array(z.object({ valor: z.int('Valor inteiro.') })),
});

const options = { fields: {}, shouldUseNativeValidation: false };

test('success returns the transformed values and no errors', async () => {
  const resolver = zodResolver(schema);
  const result = await resolver(
    { valor: 'R$ 10,50', cliente: { celular: '+5511' }, itens: [] },
    undefined,
    options,
  );
  expect(result).toEqual({
    values: { valor: 1050, cliente: { celular: '+5511' }, itens: [] },
    errors: {},
  });
});

test('failure maps issue paths to nested field errors, first message per field', async () => {
  const resolver = zodResolver(schema);
  const result = await resolver(
    { valor: 'x', cliente: { celular: '' }, itens: [{ valor: 1 }, { valor: 1.5 }] } as never,
    undefined,
    options,
  );
  expect(result.values).toEqual({});
  const errors = result.errors as Record<string, unknown>;
  expect(errors).toMatchObject({
    cliente: { celular: { message: 'Informe o celular.' } },
    itens: [undefined, { valor: { message: 'Valor inteiro.' } }],
  });
  expect(Array.isArray(errors.itens)).toBe(true);
});

test('issuesToFieldMessages joins paths with dots', () => {
  expect(
    issuesToFieldMessages([
      { path: ['cliente', 'celular'], message: 'a' },
      { path: ['cliente', 'celular'], message: 'b' },
      { path: ['itens', 2, 'valor'], message: 'c' },
      { path: [], message: 'd' },
    ]),
  ).toEqual({ 'cliente.celular': 'a', 'itens.2.valor': 'c', root: 'd' });
});
