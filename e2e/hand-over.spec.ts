import { expect, test } from './support/fixtures';
import { openCounter, search } from './support/counter';

// The demo data's João (establishment 1) has two "Vale-compras de R$ 10,00" waiting to be
// handed over (server/sandbox seed).
const JOAO = { phone: '21998765432', name: 'João Pereira' };
const VALE = 'Vale-compras de R$ 10,00';

test('a pending reward is handed over from the customer panel, with one confirmation', async ({
  page,
}) => {
  await openCounter(page);
  await search(page, JOAO.phone);
  const panel = page.getByRole('region', { name: JOAO.name });
  const entregar = panel.getByRole('button', { name: `Entregar ${VALE}` });
  await expect(entregar).toHaveCount(2);
  await entregar.first().click();
  const dialog = page.getByRole('alertdialog', { name: `Entregar ${VALE} a ${JOAO.name}?` });
  await expect(dialog).toBeVisible();
  // The focus is on "Entregar": Enter confirms (not "Cancelar", where showModal puts it).
  await expect(dialog.getByRole('button', { name: /^Entregar/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Prêmio entregue/).first()).toBeVisible();
  // The panel's list follows: one Vale left to hand over.
  await expect(panel.getByRole('button', { name: `Entregar ${VALE}` })).toHaveCount(1);
});
