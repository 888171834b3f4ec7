// Calls to the loyalty service per customer served at the counter, counted by the real app
// server (its /metrics) with the embedded sandbox behind it, the counter in Chromium: the
// lookup, the posting, the result on screen and the counter's one refresh. A spec of its own
// server, so no other spec's traffic is counted.
import { expect, test, type Page } from '@playwright/test';
import { uniquePhone } from './support/customers';
import { ownServer } from './support/own-server';
import { describeServed, openShift, serveCustomer, type Served } from './support/service-calls';

const server = ownServer('service-calls', { autoEnroll: true });

test.beforeEach(async ({ page }) => {
  await page.goto(server.url);
  await openShift(page);
});

/** Each customer served, the calls the service received for it, and what else is checked. */
const cases: {
  title: string;
  customer: Parameters<typeof serveCustomer>[2];
  calls: Record<string, number>;
  atMost?: number;
  then?: (page: Page, served: Served) => Promise<void>;
}[] = [
  {
    title: 'a customer served: the lookup, the posting and one refresh, at most 3 calls',
    // Carlos Souza (demo data): 42 points, no reward waiting; R$ 10,00 wins none.
    customer: {
      label: 'Carlos (no reward waiting, wins none)',
      phoneDigits: '31991234567',
      cents: '1000',
    },
    atMost: 3,
    calls: { 'clientes/buscar': 2, 'fidelidade/pontuar': 1 },
    then: async (_page, served) => {
      // The posting took the lookup as its snapshot and its points from the counter's refresh.
      expect(served).toMatchObject({ postingCalls: 1, snapshot: 'lookup', points: 'lookup' });
    },
  },
  {
    title: 'a customer the posting registers: at most 3 calls',
    customer: { label: 'a new customer', phoneDigits: uniquePhone().digits, cents: '2000' },
    atMost: 3,
    calls: { 'clientes/buscar': 2, 'fidelidade/pontuar': 1 },
  },
  {
    title: 'rewards waiting and one won: only what can have changed is read again',
    // Maria da Silva (demo data): 75 points, a reward waiting; R$ 25,90 brings her to 100 and
    // wins "Vale-compras de R$ 10,00". Her rewards waiting are read at the lookup and, having
    // changed, once more after the posting (the panel's list and "Entregar agora" together).
    customer: {
      label: 'Maria (a reward waiting, wins one)',
      phoneDigits: '11987654321',
      cents: '2590',
    },
    calls: { 'clientes/buscar': 2, recompensas: 2, 'fidelidade/pontuar': 1 },
  },
  {
    title: 'rewards waiting and none won: the rewards are not read again',
    customer: { label: 'João (two rewards waiting)', phoneDigits: '21998765432', cents: '1234' },
    // The lookup's two reads, the posting, the refresh: the rewards were not read again.
    calls: { 'clientes/buscar': 2, recompensas: 1, 'fidelidade/pontuar': 1 },
    then: async (page) => {
      // Posted once: the next search of him shows 50 + 12 points.
      await page.getByLabel(/buscar cliente/i).pressSequentially('21998765432');
      await expect(page.getByTestId('saldo')).toHaveText('62');
    },
  },
];

for (const { title, customer, calls, atMost, then } of cases) {
  test(title, async ({ page }) => {
    const served = await serveCustomer(page, server.url, customer);
    console.log(describeServed(served));
    if (atMost !== undefined) expect(served.total).toBeLessThanOrEqual(atMost);
    expect(served.byOperation).toEqual(calls);
    await then?.(page, served);
  });
}
