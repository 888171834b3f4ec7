import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures';
import { fetchCustomer, newCustomer } from './support/customers';
import { amount, openCounter, postButton, posted, search } from './support/counter';
import { shot, shotsDir } from './support/shots';

// The printed slip and the counter's layout on the screens it runs on.

const SHOTS = shotsDir('tests');

const MARIA = { phone: '11987654321', e164: '+5511987654321', name: 'Maria da Silva' };

const slip = (page: Page) => page.getByTestId('slip');

/** Today in São Paulo, as the slip writes dates: 22/11/2026. */
const todaySP = () =>
  new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());

async function horizontalOverflow(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
}

async function expectNoHorizontalScroll(page: Page, state: string) {
  const { scrollWidth, clientWidth } = await horizontalOverflow(page);
  expect(scrollWidth, `horizontal scroll on "${state}"`).toBeLessThanOrEqual(clientWidth);
}

/** Texts on the page a person would see, outside the slip. */
async function visibleTextOutsideSlip(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const slipEl = document.querySelector('[data-testid="slip"]');
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const el = node.parentElement;
      if (!text || !el || slipEl?.contains(el)) continue;
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || el.getClientRects().length === 0) continue;
      out.push(text);
    }
    return out;
  });
}

/**
 * Posts `cents` for a new customer whose phone ends in 4321, like the demo customer's, so
 * the slip's masked phone reads `(11) *****-4321` without touching shared demo data.
 */
async function postForNewCustomer(page: Page, cents: string) {
  let middle: string;
  do middle = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
  while (middle === '8765'); // Maria da Silva's own number
  const digits = `119${middle}4321`;
  await newCustomer(page, { nome: 'Cliente do Comprovante' }, { e164: `+55${digits}`, digits });
  await openCounter(page);
  await search(page, digits);
  await expect(page.getByRole('region', { name: 'Cliente do Comprovante' })).toBeVisible();
  await amount(page).pressSequentially(cents);
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
  return { digits, middle };
}

test.describe('the printed slip', () => {
  test('prints only the 80 mm slip, with establishment, masked phone, amount, balance, date and time', async ({
    page,
  }) => {
    const { digits, middle } = await postForNewCustomer(page, '2590');
    const balance = (await page.getByTestId('new-balance').textContent())!.trim();
    expect(balance).toMatch(/^\d[\d.]* pontos?$/);
    await expect(slip(page)).toBeHidden(); // on screen the slip is not shown

    await page.emulateMedia({ media: 'print' });
    await expect(slip(page)).toBeVisible();
    await shot(page, `${SHOTS}/slip-print.png`, { fullPage: true });
    expect(await visibleTextOutsideSlip(page)).toEqual([]);
    await expect(posted(page)).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Principal' })).toBeHidden();

    const text = (await slip(page).innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Loja Demo');
    expect(text).toContain('Cliente: (11) *****-4321');
    expect(text).toContain('Valor da compra: R$ 25,90');
    expect(text).toContain(`Saldo: ${balance}`);
    expect(text).toMatch(new RegExp(`Data: ${todaySP().replace(/\//g, '\\/')},? \\d{2}:\\d{2}`));
    for (const full of [digits, `+55${digits}`, `9${middle}-4321`, `9${middle}`]) {
      expect(text).not.toContain(full);
    }
    const box = (await slip(page).boundingBox())!;
    expect(box.width).toBeLessThanOrEqual((80 / 25.4) * 96); // 80 mm at 96 dpi
  });

  test('the slip’s separator lines fit the paper: each prints as one line', async ({ page }) => {
    await postForNewCustomer(page, '500');
    await page.emulateMedia({ media: 'print' });
    const separators = slip(page).getByText(/^-{10,}$/);
    await expect(separators).toHaveCount(2);
    for (const separator of await separators.all()) {
      const { height, lineHeight } = await separator.evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(el).lineHeight),
      }));
      expect(height).toBeLessThan(lineHeight * 1.5);
    }
  });

  test('"Imprimir comprovante" opens the print dialog', async ({ page }) => {
    await postForNewCustomer(page, '1000');
    await page.evaluate(() => {
      window.print = () => {
        (window as unknown as { __printed?: number }).__printed =
          ((window as unknown as { __printed?: number }).__printed ?? 0) + 1;
      };
    });
    await page.getByRole('button', { name: /Imprimir comprovante/ }).click();
    expect(await page.evaluate(() => (window as unknown as { __printed?: number }).__printed)).toBe(
      1,
    );
  });

  test('F9 prints too', async ({ page }) => {
    await postForNewCustomer(page, '1000');
    await page.evaluate(() => {
      window.print = () => {
        (window as unknown as { __printed?: boolean }).__printed = true;
      };
    });
    await page.keyboard.press('F9');
    expect(
      await page.evaluate(() => (window as unknown as { __printed?: boolean }).__printed),
    ).toBe(true);
  });
});

test.describe('1024×768 touch screen', () => {
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

  test('search, amount, a basket line and posting all work by tapping, with no horizontal scroll', async ({
    page,
  }) => {
    const phone = await newCustomer(page, { nome: 'Toque Tela Pequena' });

    await page.goto('/');
    const dialog = page.getByRole('dialog', { name: /abrir turno/i });
    await dialog.getByLabel('Senha do atendente').tap();
    await page.keyboard.type('1234');
    await dialog.getByRole('button', { name: /abrir turno/i }).tap();
    await expect(dialog).toBeHidden();
    await expectNoHorizontalScroll(page, 'empty counter');

    await page.getByLabel(/buscar cliente/i).tap();
    await page.keyboard.type(phone.digits);
    await page.getByRole('button', { name: /^Buscar/ }).tap();
    await expect(page.getByRole('region', { name: 'Toque Tela Pequena' })).toBeVisible();
    await expectNoHorizontalScroll(page, 'customer found');

    await amount(page).tap();
    await page.keyboard.type('1890');
    await expect(amount(page)).toHaveValue('R$ 18,90');
    await page.getByRole('button', { name: /Adicionar item/ }).tap();
    const line = page.getByRole('listitem', { name: 'Item 1' });
    await line.getByLabel('Descrição').tap();
    await page.keyboard.type('Bolo de fubá');
    await line.getByLabel('Qtd.').tap();
    await page.keyboard.press('Backspace');
    await page.keyboard.type('3');
    await line.getByLabel('Preço unit.').tap();
    await page.keyboard.type('630');
    await expect(line.getByLabel('Total do item 1')).toHaveText('R$ 18,90');
    await expectNoHorizontalScroll(page, 'sale with a basket line');
    await expectFullyInside(page, line.getByLabel('Descrição'), 'item description');
    await expectFullyInside(page, line.getByRole('button', { name: 'Remover item 1' }), 'remove');
    await expectNoInnerHorizontalScroll(page.getByRole('list').filter({ has: line }));
    // Nothing of the customer panel (the reward grid is the widest part) spills out of it.
    await expectNoInnerHorizontalScroll(page.getByRole('region', { name: 'Toque Tela Pequena' }));
    // The reward counters fit without a sideways scroll of their own: every column is seen.
    const counters = page.getByRole('region', { name: 'Contadores de prêmios' });
    await expectNoInnerHorizontalScroll(counters);
    await expect(counters.getByRole('columnheader', { name: 'Game' })).toBeInViewport({ ratio: 1 });
    await shot(page, `${SHOTS}/layout-1024-sale.png`, { fullPage: true });
    await expectAccessible(page, '1024×768 sale with a basket line');

    const button = postButton(page);
    await button.scrollIntoViewIfNeeded();
    await expectFullyInside(page, button, 'post button');
    await button.tap();
    await expect(posted(page)).toBeVisible();
    await expectNoHorizontalScroll(page, 'posted');
    await shot(page, `${SHOTS}/layout-1024-posted.png`, { fullPage: true });
    const after = await fetchCustomer(page.request, { celular: phone.e164 });
    expect(after).toMatchObject({ compras: 1 });
  });

  test('touch targets of the sale are at least 44 px tall', async ({ page }) => {
    await openCounter(page);
    await search(page, MARIA.phone);
    await expect(amount(page)).toBeFocused();
    await page.getByRole('button', { name: /Adicionar item/ }).tap();
    const targets = [
      page.getByRole('button', { name: /^Buscar/ }),
      page.getByRole('button', { name: /Adicionar item/ }),
      page.getByRole('button', { name: 'Remover item 1' }),
      page.getByRole('button', { name: /Usar total dos itens/ }),
      postButton(page),
    ];
    for (const t of targets) {
      const box = (await t.boundingBox())!;
      expect(box.height, await t.innerText()).toBeGreaterThanOrEqual(44);
    }
  });
});

test('the search and amount fields are as tall as their text needs, at any root font size', async ({
  page,
}) => {
  // Both fields sit in boxes of a fixed height (TypingBox), so that a key lays out the box
  // alone: that height must stay the field's own, or the field's text and border are cut.
  await openCounter(page);
  await search(page, MARIA.phone);
  await expect(amount(page)).toBeFocused();
  for (const rootPx of [16, 24]) {
    await page.evaluate((px) => (document.documentElement.style.fontSize = `${px}px`), rootPx);
    for (const field of [page.getByLabel(/buscar cliente/i), amount(page)]) {
      const fit = await field.evaluate((input: HTMLInputElement) => {
        const box = input.parentElement!;
        const held = input.getBoundingClientRect().height;
        // The field's own height: what it takes out of a box that leaves it free.
        box.style.contain = 'none';
        box.style.height = 'auto';
        input.style.height = 'auto';
        const own = input.getBoundingClientRect().height;
        box.style.contain = box.style.height = input.style.height = '';
        return { held, own, contain: getComputedStyle(box).contain };
      });
      expect(fit.contain, `${rootPx}px root`).toBe('size layout');
      expect(
        Math.abs(fit.held - fit.own),
        `${rootPx}px root: ${fit.held} vs ${fit.own}`,
      ).toBeLessThan(0.5);
    }
  }
});

test('1366×768: a found customer with 2 basket lines fits without horizontal scroll', async ({
  page,
}) => {
  await openCounter(page);
  await search(page, MARIA.phone);
  await expect(page.getByRole('region', { name: MARIA.name })).toBeVisible();
  await amount(page).pressSequentially('4500');
  for (const [n, desc, price] of [
    [1, 'Refrigerante lata 350 ml', '1500'],
    [2, 'Sanduíche natural de frango', '3000'],
  ] as const) {
    await page.getByRole('button', { name: /Adicionar item/ }).click();
    const line = page.getByRole('listitem', { name: `Item ${n}` });
    await line.getByLabel('Descrição').fill(desc);
    await line.getByLabel('Complemento').fill('sem gelo');
    await line.getByLabel('Preço unit.').pressSequentially(price);
    await expectFullyInside(page, line.getByLabel('Descrição'), `item ${n} description`);
  }
  await expect(postButton(page)).toBeEnabled();
  await expectNoHorizontalScroll(page, '1366 with 2 basket lines');
  await expectNoInnerHorizontalScroll(
    page.getByRole('list').filter({ has: page.getByRole('listitem', { name: 'Item 1' }) }),
  );
  await shot(page, `${SHOTS}/layout-1366-basket.png`, { fullPage: true });
});

/** The element lies inside the viewport's width and is wide enough to use (≥ 44 px). */
async function expectFullyInside(page: Page, target: Locator, what: string) {
  const box = await target.boundingBox();
  expect(box, what).not.toBeNull();
  const width = page.viewportSize()!.width;
  expect(box!.x, `${what} left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} right edge`).toBeLessThanOrEqual(width);
  expect(box!.width, `${what} width`).toBeGreaterThanOrEqual(44);
}

/** The box's content fits its width: nothing spills out or hides sideways. */
async function expectNoInnerHorizontalScroll(target: Locator) {
  const { scrollWidth, clientWidth } = await target.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
  }));
  expect(scrollWidth, 'content wider than its box').toBeLessThanOrEqual(clientWidth);
}
