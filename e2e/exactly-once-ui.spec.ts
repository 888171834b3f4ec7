// Exactly once, seen from the counter: the browser against the real app server (live mode,
// the postings journal) whose upstream is the fault relay in front of the sandbox run alone.
// Each case counts the postings the page sent, what the screen said and what the service
// holds, and prints them.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { freshPhone, sandboxPurchases } from '../server/testing/processes';
import type { RelayCounts } from '../server/testing/relay';
import { enrollContext as enrollTerminal } from './support/enroll-context';
import { ownRelayedApp } from './support/own-server';
import { amount, openShift, postButton, posted, recordPostings } from './support/counter';

const own = ownRelayedApp('exactly-once-ui');

/** Makes the browser context an enrolled caixa terminal of this spec's app server. */
function enrollContext(context: BrowserContext): Promise<void> {
  return enrollTerminal(context, own, 'Caixa e2e');
}

test.describe.configure({ mode: 'serial' });

const pontuarOf = (phone: string) => (r: { path: string; body: string }) =>
  r.path.endsWith('/fidelidade/pontuar') && r.body.includes(phone);

/** A customer registered straight in the sandbox; returns the phone's digits for the search. */
async function customer(nome: string): Promise<{ e164: string; digits: string }> {
  const e164 = freshPhone();
  const res = await fetch(`${own.sandbox.url}/api/v4/estabelecimentos/1/clientes/cadastrar`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'app-token': 'demo-app-token',
      'access-token': 'demo-access-token-1',
    },
    body: JSON.stringify({ celular: e164, nome }),
  });
  expect(res.status).toBe(201);
  return { e164, digits: e164.slice(3) };
}

async function sell(page: Page, phone: string, cents: string) {
  const field = page.getByLabel(/buscar cliente/i);
  await field.fill(phone);
  await field.press('Enter');
  await expect(amount(page)).toBeVisible();
  await amount(page).pressSequentially(cents);
  await postButton(page).click();
}

/** A fault rule's counts, for the report: what the relay did to the matching requests. */
const relayCounts = (c: RelayCounts) => ({
  'relay.received': c.received,
  'relay.forwarded': c.forwarded,
  'relay.answered': c.answered,
  'relay.reset': c.reset,
});

function report(name: string, counts: Record<string, number | string>) {
  console.log(
    `[exactly-once-ui] ${name}: ${Object.entries(counts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}

test('the service commits at 11 s and at 59 s: each screen ends in "lançado", one posting each', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const results = await Promise.all(
    [11, 59].map(async (s) => {
      const phone = await customer(`Demora ${s}`);
      const rule = own.relay.add({
        match: pontuarOf(phone.e164),
        fault: { kind: 'delay', ms: s * 1000 },
      });
      const context = await browser.newContext();
      await enrollContext(context);
      const page = await context.newPage();
      await page.goto(own.app.url);
      await openShift(page);
      const sent = recordPostings(page);
      let started = 0;
      page.on('request', (r) => {
        if (!started && r.url().endsWith('/fidelidade/pontuar')) started = Date.now();
      });
      await sell(page, phone.digits, '2590');
      await expect(posted(page)).toBeVisible({ timeout: (s + 20) * 1000 });
      const elapsed = (Date.now() - started) / 1000;
      const delivered = await sandboxPurchases(own.sandbox.url, phone.e164);
      report(`commit at ${s} s`, {
        screen: 'lançado',
        'shown after the request': `${elapsed.toFixed(1)}s`,
        sent: sent.length,
        delivered,
        ...relayCounts(rule),
      });
      await context.close();
      return { s, sent: sent.length, delivered, rule: { ...rule }, elapsed };
    }),
  );
  for (const r of results) {
    expect({ sent: r.sent, delivered: r.delivered }, `commit at ${r.s} s`).toEqual({
      sent: 1,
      delivered: 1,
    });
    // The fault fired: the relay held this sale's posting (and only it) before the service
    // got it, so "lançado" could not be shown sooner than the delay.
    expect(r.rule, `commit at ${r.s} s: the delay rule`).toMatchObject({
      received: 1,
      forwarded: 1,
    });
    expect(r.elapsed, `commit at ${r.s} s: shown after`).toBeGreaterThanOrEqual(r.s);
  }
});

test('a reload while the posting is in flight: the result is shown after the reload, one posting', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const phone = await customer('Recarregou');
  const rule = own.relay.add({ match: pontuarOf(phone.e164), fault: { kind: 'delay', ms: 6000 } });
  await enrollContext(page.context());
  await page.goto(own.app.url);
  await openShift(page);
  const sent = recordPostings(page);
  await sell(page, phone.digits, '3100');
  await expect.poll(() => rule.received, { timeout: 10_000 }).toBe(1);
  await page.reload();
  await openShift(page);
  await expect(posted(page)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('R$ 31,00').first()).toBeVisible();
  const delivered = await sandboxPurchases(own.sandbox.url, phone.e164);
  report('reload mid-post', {
    screen: 'lançado',
    sent: sent.length,
    delivered,
    ...relayCounts(rule),
  });
  expect(sent).toHaveLength(1);
  expect(delivered).toBe(1);
});

test('two tabs post for one customer, one answer lost: each tab shows its own sale', async ({
  context,
}) => {
  test.setTimeout(60_000);
  const phone = await customer('Duas Abas');
  // The first posting to reach the service has its answer lost after it commits.
  const rule = own.relay.add({
    match: pontuarOf(phone.e164),
    fault: { kind: 'lose-answer', delayMs: 500 },
  });
  await enrollContext(context);
  const [a, b] = [await context.newPage(), await context.newPage()];
  for (const page of [a, b]) {
    await page.goto(own.app.url);
    await openShift(page);
  }
  await Promise.all([sell(a, phone.digits, '1000'), sell(b, phone.digits, '2000')]);
  for (const page of [a, b]) await expect(posted(page)).toBeVisible({ timeout: 30_000 });
  await expect(a.getByText('R$ 10,00').first()).toBeVisible();
  await expect(b.getByText('R$ 20,00').first()).toBeVisible();
  const delivered = await sandboxPurchases(own.sandbox.url, phone.e164);
  report('two tabs, one answer lost', {
    tabA: 'R$ 10,00 lançado',
    tabB: 'R$ 20,00 lançado',
    delivered,
    ...relayCounts(rule),
  });
  expect(delivered).toBe(2);
  // The fault fired: one posting reached the service and its answer was lost on the way back.
  expect(rule).toEqual({ received: 1, forwarded: 1, answered: 0, reset: 1, inFlight: 0 });
});
