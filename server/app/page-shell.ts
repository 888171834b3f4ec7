// The page's header, painted from the HTML before any JavaScript has run: on a cheap tablet the
// entry takes a second or more to download and evaluate, and until then the screen was blank.
// It is the same markup the SPA's `Shell` renders (src/app/app.tsx), from the same config the
// page carries; the SPA's first render replaces it with its own (an e2e test compares the two
// node by node). Pages with no header (not enrolled yet, the kiosk) get nothing.
import type { ConfigData } from './app';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

const NAV = [
  { href: '/', label: 'Caixa', screen: 'caixa' },
  { href: '/premios', label: 'Prêmios', screen: 'premios' },
  { href: '/quiosque', label: 'Quiosque', screen: 'quiosque' },
] as const;

const ROLE_LABELS = { caixa: 'Caixa', gerente: 'Gerente', quiosque: 'Quiosque' } as const;

/** The header's HTML for this page, or '' where the SPA shows none. */
export function pageShellHtml(config: ConfigData, pathname: string): string {
  const terminal = config.terminal;
  if (terminal === null) return ''; // the enrollment screen
  const may = terminal.navigation;
  if (may.quiosque && (pathname === '/quiosque' || (!may.caixa && pathname === '/'))) return '';
  const links = NAV.filter((item) => may[item.screen])
    .map((item) => {
      const current = item.href === '/' ? pathname === '/' : pathname.startsWith(item.href);
      const tone = current ? 'bg-white text-slate-900' : 'text-slate-100 hover:bg-slate-700';
      return (
        `<li><a href="${item.href}"${current ? ' aria-current="page"' : ''}` +
        ` class="block rounded-md px-3 py-2 font-semibold ${tone}">${item.label}</a></li>`
      );
    })
    .join('');
  const establishment =
    `<strong>${escapeHtml(config.establishmentName ?? `#${config.establishmentId}`)}</strong>` +
    (config.establishmentName
      ? `<span class="text-slate-300"> · nº ${config.establishmentId}</span>`
      : '');
  const badge =
    config.mode === 'sandbox'
      ? '<span class="rounded bg-amber-300 px-2 py-0.5 font-bold whitespace-nowrap text-slate-950">Sandbox (demonstração)</span>'
      : '<span class="rounded bg-emerald-300 px-2 py-0.5 font-bold whitespace-nowrap text-slate-950">Serviço real</span>';
  return (
    '<div class="flex min-h-dvh flex-col">' +
    '<header class="flex flex-wrap items-center gap-x-6 gap-y-1 bg-slate-900 px-4 py-2 text-white print:hidden">' +
    '<p class="text-lg font-bold"><span aria-hidden="true" class="text-amber-400">★ </span>Fidelidade PDV</p>' +
    `<nav aria-label="Principal"><ul class="flex gap-1">${links}</ul></nav>` +
    '<p class="ml-auto flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="connection">' +
    '<span data-testid="terminal"><span class="text-slate-300">Terminal </span>' +
    `<strong>${escapeHtml(terminal.name)}</strong>` +
    `<span class="text-slate-300"> · ${ROLE_LABELS[terminal.role]}</span></span>` +
    `<span><span class="text-slate-300">Estabelecimento </span>${establishment}</span>` +
    badge +
    '</p></header></div>'
  );
}
