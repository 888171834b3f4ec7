// Vigilância through the real app server (embedded sandbox, auto-enrollment off): a counter
// whose PDV sends every sale (`npm run terminal -- add --role integracao`) has amounts typed by
// hand, and the PDV cancels a sale already posted (409, re-sent: still one record). The
// manager sees the planted alerts, opens one's evidence and the shift behind it, acknowledges
// it with a note (the audit trail shows who and why), exports the CSV; the dashboard counts the
// open alerts. At 390 px the alerts are cards; a cashier has no link, no screen and no API.
import { terminalCli } from '../server/testing/spawn';
import { downloadFrom, readCsv } from './support/csv';
import { expect, expectAccessible, test } from './support/fixtures';
import { openShift, postSale } from './support/counter';
import { overflowing } from './support/layout';
import { enrolledTerminal, serialSpec, saoPauloDay } from './support/own-server';
import { shot } from './support/shots';

const { server, shots: SHOTS } = serialSpec('vigilancia');

async function pdv(token: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/integracao/vendas${path}`, {
    method: body === undefined && !path.endsWith('/cancelar') ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data: { venda: { estado: string } } },
  };
}

test('a manager sees the planted alerts, reads the evidence, acknowledges one and exports', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // The store's hours are the manager's: this run may be at any hour, so rule 6 is switched
  // off first, in the rules panel (its other rules keep their defaults).
  const gerente = await enrolledTerminal(server, browser, 'gerente', 'Gerência', 1280);
  const page = gerente.page;
  await page.goto(`${server.url}/vigilancia`);
  await expect(page.getByText('Nenhum alerta com estes filtros.')).toBeVisible();
  await page.getByRole('button', { name: 'Regras e limites' }).click();
  const rules = page.getByRole('form', { name: 'Regras da Vigilância' });
  await rules.getByRole('checkbox', { name: '6. Lançamento fora do horário' }).uncheck();
  await rules.getByRole('button', { name: 'Salvar regras' }).click();
  await expect(rules.getByRole('status')).toHaveText('Regras salvas.');
  await shot(page, `${SHOTS}/vigilancia-regras-1280.png`, { fullPage: true });
  const caixa = await enrolledTerminal(server, browser, 'caixa', 'Caixa 1', 1024);
  const added = await terminalCli(
    ['add', '--role', 'integracao', '--name', 'PDV 1', '--caixa', caixa.id],
    server.env,
  );
  const token = /^(pdv\.\S+)$/m.exec(added)?.[1] ?? '';
  expect(token, added).not.toBe('');

  // Planted: two amounts typed by hand at the counter whose PDV sends every sale.
  await openShift(caixa.page);
  await postSale(caixa.page, '11912340001', '8800');
  await postSale(caixa.page, '11912340002', '12000');
  // Planted: a sale the PDV posted (Maria's CPF), then cancelled there twice.
  const idVenda = `e2e-${Date.now()}`;
  await pdv(token, '', { id_venda: idVenda, valor_gasto: 4590, cpf: '52998224725' });
  await expect
    .poll(async () => (await pdv(token, `/${idVenda}?aguardar=2`)).body.data.venda.estado)
    .toBe('lançada');
  expect((await pdv(token, `/${idVenda}/cancelar`)).status).toBe(409);
  expect((await pdv(token, `/${idVenda}/cancelar`)).status).toBe(409);

  // The dashboard counts the open alerts and leads to them.
  await page.goto(`${server.url}/painel`);
  const warning = page.getByRole('alert').filter({ hasText: 'Vigilância: alertas abertos' });
  await expect(warning).toContainText('3 alerta(s) aberto(s), 1 de estorno após pontuação');
  // The conferência keeps the estorno open until a manager closes it.
  await expect(
    page.getByRole('alert').filter({ hasText: 'Estornos após pontuação em aberto' }),
  ).toContainText('1 venda(s) cancelada(s) no PDV depois de pontuada(s)');
  await page
    .getByRole('navigation', { name: 'Principal' })
    .getByRole('link', { name: 'Vigilância' })
    .click();
  await expect(page.getByRole('heading', { name: 'Vigilância', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Alertas' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Lançamento sem venda no PDV' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Estorno após pontuação' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Estorno após pontuação' })).toContainText(idVenda);
  await expect(page.getByText('3 alertas abertos.')).toBeVisible();
  await expectAccessible(page, 'vigilância, alertas abertos');
  expect(await overflowing(page)).toEqual([]);
  await shot(page, `${SHOTS}/vigilancia-1280.png`, { fullPage: true });

  // The estorno says what to reverse in the service's panel.
  await rows.filter({ hasText: 'Estorno após pontuação' }).getByRole('button').click();
  const estorno = page.getByRole('region', { name: /^Alerta nº \d+$/ });
  await expect(estorno.getByText('O que fazer')).toBeVisible();
  await expect(estorno).toContainText('no painel do programa de fidelidade');
  await estorno.getByRole('button', { name: 'Fechar' }).click();

  // One typed amount's evidence: no PDV sale behind it, the posting, the shift.
  const typed = rows.filter({ hasText: 'R$ 88,00' });
  await typed.getByRole('button').click();
  const detail = page.getByRole('region', { name: /^Alerta nº \d+$/ });
  await expect(detail).toContainText('Venda do PDV: nenhuma nos 15 minutos antes');
  await expect(detail.getByRole('table', { name: 'Lançamentos do alerta' })).toContainText(
    'R$ 88,00',
  );
  await detail.getByRole('button', { name: /Ver os lançamentos do turno/ }).click();
  await expect(
    detail.getByRole('table', { name: 'Lançamentos do turno' }).locator('tbody tr'),
  ).toHaveCount(3); // the two typed, and the PDV's sale
  await shot(page, `${SHOTS}/vigilancia-evidencia-1280.png`, { fullPage: true });

  // Acknowledged with a note (refused without one), by keyboard.
  await detail.getByRole('button', { name: 'Reconhecer' }).click();
  await expect(detail.getByText('Escreva uma nota (3 letras ou mais).')).toBeVisible();
  await detail
    .getByLabel('Nota (por que reconhece ou descarta)')
    .fill('Valor conferido com o cupom');
  await detail.getByRole('button', { name: 'Reconhecer' }).focus();
  await page.keyboard.press('Enter');
  await expect(detail.getByRole('status')).toContainText('Reconhecido por Gerência');
  await expect(detail.getByRole('status')).toContainText('Valor conferido com o cupom');
  await expect(rows).toHaveCount(2); // the open ones

  // Every alert exported: recorded, then written.
  const filters = page.getByRole('form', { name: 'Filtros dos alertas' });
  await filters.getByLabel('Estado').selectOption({ label: 'Todos' });
  await filters.getByRole('button', { name: 'Filtrar' }).click();
  await expect(rows).toHaveCount(3);
  const download = await downloadFrom(page.getByRole('button', { name: 'Exportar CSV' }));
  expect(download.suggestedFilename()).toBe(`vigilancia-${saoPauloDay(new Date())}.csv`);
  const { rows: parsed } = await readCsv(download);
  expect(parsed).toHaveLength(4);
  expect(parsed[0]!.slice(0, 3)).toEqual(['Alerta', 'Criado em', 'Regra']);
  expect(parsed.filter((r) => r.includes('Reconhecido'))).toHaveLength(1);
  expect(parsed.flat().join(' ')).not.toContain('12340001'); // phones masked

  // The audit trail shows who decided and why, and the export.
  await page.goto(`${server.url}/auditoria`);
  const trail = page.getByRole('table', { name: 'Registros de auditoria' }).locator('tbody tr');
  const decided = trail.filter({ hasText: 'Alerta da Vigilância decidido' });
  await expect(decided).toHaveCount(1);
  await expect(decided).toContainText('Gerência');
  await expect(decided).toContainText('reconhecido: Valor conferido com o cupom');
  await expect(trail.filter({ hasText: 'Vigilância: 3 linhas' })).toHaveCount(1);
  await expect(trail.filter({ hasText: 'Regras da Vigilância alteradas' })).toHaveCount(1);

  // At 390 px: one card an alert, nothing sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/vigilancia`);
  const cards = page.getByRole('list', { name: 'Alertas' }).getByRole('listitem');
  await expect(cards).toHaveCount(2);
  expect(await overflowing(page)).toEqual([]);
  await shot(page, `${SHOTS}/vigilancia-390.png`, { fullPage: true });
  await cards.first().getByRole('button').click();
  await expect(page.getByRole('region', { name: /^Alerta nº \d+$/ })).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await shot(page, `${SHOTS}/vigilancia-evidencia-390.png`, { fullPage: true });

  // A cashier: no link, no screen, no API.
  await expect(caixa.page.getByRole('link', { name: 'Vigilância' })).toHaveCount(0);
  await caixa.page.goto(`${server.url}/vigilancia`);
  await expect(
    caixa.page.getByRole('heading', { name: 'Este terminal não tem acesso a esta tela' }),
  ).toBeVisible();
  for (const path of [
    '/api/vigilancia/alertas',
    '/api/vigilancia/regras',
    '/api/vigilancia/exportar',
  ]) {
    expect((await caixa.page.request.get(`${server.url}${path}`)).status(), path).toBe(403);
  }
});
