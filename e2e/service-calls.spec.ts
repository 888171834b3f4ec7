// Calls to the loyalty service per customer served at the counter, counted by the real app
// server (its /metrics) with the embedded sandbox behind it, the counter in Chromium: the
// lookup, the posting, the result on screen and the counter's one refresh. A spec of its own
// server, so no other spec's traffic is counted.
import { expect, test } from '@playwright/test';
import { uniquePhone } from './support/fixtures';
import { ownServer } from './support/own-server';
import { describeServed, openShift, serveCustomer } from './support/service-calls';

const server = ownServer('service-calls', { autoEnroll: true });

test.beforeEach(async ({ page }) => {
  await page.goto(server.url);
  await openShift(page);
});

test('a customer served: the lookup, the posting and one refresh, at most 3 calls', async ({
  page,
}) => {
  // Carlos Souza (demo data): 42 points, no reward waiting; R$ 10,00 wins none.
  const served = await serveCustomer(page, server.url, {
    label: 'Carlos (no reward waiting, wins none)',
    phoneDigits: '31991234567',
    cents: '1000',
  });
  console.log(describeServed(served));
  expect(served.total).toBeLessThanOrEqual(3);
  expect(served.byOperation).toEqual({ 'clientes/buscar': 2, 'fidelidade/pontuar': 1 });
  // The posting took the lookup as its snapshot and its points from the counter's refresh.
  expect(served).toMatchObject({ postingCalls: 1, snapshot: 'lookup', points: 'lookup' });
});

test('a customer the posting registers: at most 3 calls', async ({ page }) => {
  const phone = uniquePhone();
  const served = await serveCustomer(page, server.url, {
    label: 'a new customer',
    phoneDigits: phone.digits,
    cents: '2000',
  });
  console.log(describeServed(served));
  expect(served.total).toBeLessThanOrEqual(3);
  expect(served.byOperation).toEqual({ 'clientes/buscar': 2, 'fidelidade/pontuar': 1 });
});

test('rewards waiting and one won: only what can have changed is read again', async ({ page }) => {
  // Maria da Silva (demo data): 75 points, a reward waiting; R$ 25,90 brings her to 100 and
  // wins "Vale-compras de R$ 10,00". Her rewards waiting are read at the lookup and, having
  // changed, once more after the posting (the panel's list and "Entregar agora" together).
  const served = await serveCustomer(page, server.url, {
    label: 'Maria (a reward waiting, wins one)',
    phoneDigits: '11987654321',
    cents: '2590',
  });
  console.log(describeServed(served));
  expect(served.byOperation).toEqual({
    'clientes/buscar': 2,
    recompensas: 2,
    'fidelidade/pontuar': 1,
  });
});

test('rewards waiting and none won: the rewards are not read again', async ({ page }) => {
  const served = await serveCustomer(page, server.url, {
    label: 'João (two rewards waiting)',
    phoneDigits: '21998765432',
    cents: '1234',
  });
  console.log(describeServed(served));
  // The lookup's two reads, the posting, the refresh: the rewards were not read again.
  expect(served.byOperation).toEqual({
    'clientes/buscar': 2,
    recompensas: 1,
    'fidelidade/pontuar': 1,
  });
  // Posted once: the next search of him shows 50 + 12 points.
  await page.getByLabel(/buscar cliente/i).pressSequentially('21998765432');
  await expect(page.getByTestId('saldo')).toHaveText('62');
});
