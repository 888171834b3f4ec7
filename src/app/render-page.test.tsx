// Runs in Node, as the app server does (vitest.config.ts: the server project).
import { describe, expect, test } from 'vitest';
import { renderPage } from './render-page';

const config = (terminal: Record<string, unknown> | null = {}, over = {}) => ({
  establishmentId: 7,
  establishmentName: 'Loja Centro',
  mode: 'live',
  enrollment: 'code',
  terminal:
    terminal === null
      ? null
      : {
          id: 1,
          name: 'Caixa 1',
          role: 'caixa',
          navigation: { caixa: true, premios: false, quiosque: false },
          ...terminal,
        },
  ...over,
});

const manager = { role: 'gerente', navigation: { caixa: true, premios: true, quiosque: true } };

describe("the app server's render of a page", () => {
  test('the counter: header, search field and the shift dialog, shown without JavaScript', async () => {
    const html = await renderPage(config(), '/');
    expect(html).toContain('<strong>Caixa 1</strong>');
    expect(html).toContain('<strong>Loja Centro</strong>');
    expect(html).toContain('Serviço real');
    expect(html.match(/<a /g)).toHaveLength(1); // only what the role may use
    expect(html).toContain('id="lookup"');
    // Open in the page: it cannot open modal there.
    expect(html).toMatch(/<dialog open="" aria-labelledby="shift-title"/);
    expect(html).toContain('Abrir turno');
    // The app gives the focus once it runs (openModal, on the field marked data-autofocus): no
    // autofocus attribute in the page.
    expect(html).not.toMatch(/\sautofocus(=|\s|>)/);
    expect(html).toContain('data-autofocus');
  });

  test('marks the current page; renders the route the address names, with its query', async () => {
    const html = await renderPage(
      config(manager, { mode: 'sandbox' }),
      '/premios?status=resgatado',
    );
    expect(html).toContain('<a href="/premios" aria-current="page"');
    expect(html).not.toContain('<a href="/" aria-current');
    expect(html).toContain('Sandbox (demonstração)');
    expect(html).toMatch(/<h1[^>]*>Prêmios<\/h1>/);
    expect(html).not.toContain('id="lookup"');
  });

  test('names are escaped: a terminal or store name cannot write markup', async () => {
    const html = await renderPage(
      config({ name: '<img src=x onerror=alert(1)>"' }, { establishmentName: 'A&B <Loja>' }),
      '/',
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;');
    expect(html).toContain('A&amp;B &lt;Loja&gt;');
    expect(html).not.toContain('<img');
  });

  test('a browser not enrolled: the enrollment screen; the kiosk: full screen, no header', async () => {
    const enroll = await renderPage(config(null), '/');
    expect(enroll).toContain('Código de registro');
    expect(enroll).not.toContain('<header');
    const kiosk = await renderPage(
      config({ role: 'quiosque', navigation: { caixa: false, premios: false, quiosque: true } }),
      '/',
    );
    expect(kiosk).not.toContain('<header');
    expect(kiosk).toContain('<main');
  });

  test('a config that does not read is refused, not rendered', async () => {
    await expect(renderPage({ establishmentId: 'sete' }, '/')).rejects.toThrow();
  });
});
