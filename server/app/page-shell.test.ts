import { describe, expect, test } from 'vitest';
import type { ConfigData } from './app';
import { pageShellHtml } from './page-shell';

const config = (
  over: Partial<ConfigData> = {},
  terminal: Partial<NonNullable<ConfigData['terminal']>> = {},
): ConfigData => ({
  establishmentId: 7,
  establishmentName: 'Loja Centro',
  mode: 'live',
  enrollment: 'code',
  terminal: {
    id: 1,
    name: 'Caixa 1',
    role: 'caixa',
    navigation: { caixa: true, premios: false, quiosque: false },
    ...terminal,
  },
  ...over,
});

describe('the header painted before the SPA', () => {
  test('shows the terminal, its role, the establishment and the live badge; links only what the role may use', () => {
    const html = pageShellHtml(config(), '/');
    expect(html).toContain('<strong>Caixa 1</strong>');
    expect(html).toContain(' · Caixa</span>');
    expect(html).toContain(
      '<strong>Loja Centro</strong><span class="text-slate-300"> · nº 7</span>',
    );
    expect(html).toContain('Serviço real');
    expect(html).not.toContain('Sandbox');
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('<a href="/" aria-current="page"');
  });

  test('marks the current page in the navigation', () => {
    const html = pageShellHtml(
      config(
        { mode: 'sandbox' },
        { role: 'gerente', navigation: { caixa: true, premios: true, quiosque: true } },
      ),
      '/premios',
    );
    expect(html).toContain('<a href="/premios" aria-current="page"');
    expect(html).not.toContain('<a href="/" aria-current');
    expect(html).toContain('Sandbox (demonstração)');
  });

  test('names are escaped: a terminal or store name cannot write markup', () => {
    const html = pageShellHtml(
      config({ establishmentName: 'A&B <Loja>' }, { name: '<img src=x onerror=alert(1)>"' }),
      '/',
    );
    expect(html).toContain('<strong>&lt;img src=x onerror=alert(1)&gt;&quot;</strong>');
    expect(html).toContain('<strong>A&amp;B &lt;Loja&gt;</strong>');
    expect(html).not.toContain('<img');
  });

  test('without an establishment name: its number, as the SPA shows it', () => {
    expect(pageShellHtml(config({ establishmentName: null }), '/')).toContain(
      '<span class="text-slate-300">Estabelecimento </span><strong>#7</strong></span>',
    );
  });

  test('nothing where the SPA shows no header: not enrolled, the kiosk', () => {
    expect(pageShellHtml(config({ terminal: null }), '/')).toBe('');
    const kiosk = {
      role: 'quiosque',
      navigation: { caixa: false, premios: false, quiosque: true },
    } as const;
    expect(pageShellHtml(config({}, kiosk), '/')).toBe('');
    expect(pageShellHtml(config({}, kiosk), '/quiosque')).toBe('');
    const manager = {
      role: 'gerente',
      navigation: { caixa: true, premios: true, quiosque: true },
    } as const;
    expect(pageShellHtml(config({}, manager), '/quiosque')).toBe('');
    expect(pageShellHtml(config({}, manager), '/')).toContain('<header');
  });
});
