import { expect, test } from 'vitest';
import { configureApi } from './client';
import { customerKeys, rewardKeys } from './keys';

test('keys are scoped by establishment and nest for prefix invalidation', () => {
  configureApi({ establishmentId: 3 });
  expect(customerKeys.all).toEqual(['estabelecimento', 3, 'customers']);
  expect(customerKeys.detail({ kind: 'phone', celular: '+5511987654321' })).toEqual([
    'estabelecimento',
    3,
    'customers',
    'detail',
    { kind: 'phone', celular: '+5511987654321' },
  ]);
  expect(rewardKeys.list({ status: 'resgatado' }).slice(0, 4)).toEqual(rewardKeys.lists());
  configureApi({ establishmentId: 4 });
  expect(rewardKeys.all).toEqual(['estabelecimento', 4, 'rewards']);
});

test('a lookup key drops extra fields such as display', () => {
  const classified = { kind: 'cpf' as const, cpf: '52998224725', display: '529.982.247-25' };
  expect(customerKeys.detail(classified).at(-1)).toEqual({ kind: 'cpf', cpf: '52998224725' });
});

test('reward list keys ignore unset filters', () => {
  expect(rewardKeys.list({ q: '', status: undefined, page: 1 })).toEqual(
    rewardKeys.list({ page: 1 }),
  );
});
