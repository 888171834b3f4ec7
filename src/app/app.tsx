import { lazy, Suspense, useState, type ComponentType } from 'react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createQueryClient } from '@/api/query-client';
import { configQuery, peekPageConfig } from '@/api/client';
import type { Config as AppConfig } from '#contract/api/config';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { configKeys } from '@/api/keys';
import { showsKiosk } from '#contract/wire';
import { Link, navigate, ServerLocation, useLocation } from '@/lib/router';
import { useRevocationWatch } from '@/features/terminals/use-revocation-watch';
import { CaixaRoute } from './routes/caixa';
import { EnrollScreen, prefetchCounterParts } from './routes/counter-parts';

type Chunk<P> = { default: ComponentType<P> };

/**
 * A route in its own chunk. `React.lazy` alone suspends on the first render even when the
 * chunk is in memory, paints the fallback, then holds the page back for its 300 ms reveal
 * throttle; once this chunk has loaded, the thenable handed to `lazy` resolves synchronously
 * and the route renders in the same pass.
 */
function lazyRoute<P>(load: () => Promise<Chunk<P>>) {
  let chunk: Chunk<P> | undefined;
  const start = () => load().then((m) => (chunk = m));
  const route = lazy(() =>
    chunk
      ? ({ then: (done: (m: Chunk<P>) => void) => done(chunk!) } as Promise<Chunk<P>>)
      : start(),
  );
  return [route, start] as const;
}

/** The screens in a chunk of their own, by their path's name (`/premios`, …). */
const screens = {
  quiosque: lazyRoute(() => import('./routes/quiosque')),
  premios: lazyRoute(() => import('./routes/premios')),
  painel: lazyRoute(() => import('./routes/painel')),
  auditoria: lazyRoute(() => import('./routes/auditoria')),
  lancamentos: lazyRoute(() => import('./routes/lancamentos')),
  vigilancia: lazyRoute(() => import('./routes/vigilancia')),
  terminais: lazyRoute(() => import('./routes/terminais')),
};
const QuiosqueRoute = screens.quiosque[0];
type LazyScreen = keyof typeof screens;
const lazyScreen = (view: View): view is LazyScreen => view in screens;

/** What the app shows for a path: `terminal` null is a browser that is not a terminal. */
type View = 'enroll' | 'caixa' | LazyScreen | 'not-allowed' | 'not-found';

function viewOf(pathname: string, terminal: Terminal | null): View {
  if (terminal === null) return 'enroll';
  if (showsKiosk(terminal.navigation, pathname)) return 'quiosque';
  const screen = screenAt(pathname);
  if (screen === undefined) return 'not-found';
  // `/quiosque` allowed is the kiosk (above).
  return terminal.navigation[screen] ? screen : 'not-allowed';
}

/**
 * Settles once the code of the page's first view has loaded (or failed: the view then
 * reports it as before); main.tsx renders after it. The view is the one the config the page
 * carries gives for this path (a kiosk terminal's `/` is the kiosk), so the first render
 * suspends nowhere: a page opened on /premios or /quiosque paints whole at once, and React
 * adopts a page the server painted (`painted`) all in one commit. A part left unadopted would
 * take no tap once the page stops being inert (main.tsx): React drops a click on it.
 */
export const routeReady = (pathname: string, painted = false): Promise<unknown> => {
  const config = peekPageConfig();
  const view = config ? viewOf(pathname, config.terminal) : screenAt(pathname);
  const load =
    view && lazyScreen(view)
      ? screens[view][1]
      : painted && (!view || view === 'caixa' || view === 'enroll')
        ? prefetchCounterParts
        : async () => 0;
  return load().catch(() => 0);
};

/**
 * The whole app. `page` is for the app server's render of a page (src/app/render-page.tsx):
 * the config the page carries and its path and query, which the browser reads for itself.
 */
export function App({ page }: { page?: { config: AppConfig; href: string } }) {
  const [client] = useState(() => {
    const c = createQueryClient();
    if (page) c.setQueryData(configKeys.all, page.config);
    return c;
  });
  return (
    <QueryClientProvider client={client}>
      <ServerLocation value={page?.href ?? null}>
        <ConfigGate />
      </ServerLocation>
    </QueryClientProvider>
  );
}

/** Nothing talks to the service before we know which establishment we are connected to. */
function ConfigGate() {
  const config = useQuery(configQuery());
  useRevocationWatch();
  // Once this browser has been a terminal, losing it means it was revoked.
  const [wasEnrolled, setWasEnrolled] = useState(false);
  if (config.data?.terminal && !wasEnrolled) setWasEnrolled(true);
  if (config.isPending)
    return (
      <p role="status" className="p-8 text-lg">
        Conectando ao serviço de fidelidade…
      </p>
    );
  if (config.isError)
    return (
      <main className="mx-auto max-w-xl p-8">
        <Alert tone="error" title="Não foi possível carregar a configuração do caixa.">
          <p>{config.error.message}</p>
          <div>
            <Button onClick={() => void config.refetch()}>Tentar novamente</Button>
          </div>
        </Alert>
      </main>
    );
  const terminal = config.data.terminal;
  if (terminal === null)
    return (
      <Suspense fallback={null}>
        <EnrollScreen revoked={wasEnrolled} />
      </Suspense>
    );
  return <Shell config={config.data} terminal={terminal} />;
}

type Terminal = NonNullable<AppConfig['terminal']>;
/** The screen of the navigation at `pathname`, if any. */
const screenAt = (pathname: string) =>
  nav.some((item) => item.href === pathname) ? screenOf(pathname) : undefined;
/** A navigation path's screen: `/premios` is `premios`, `/` the counter. */
const screenOf = (href: string) => (href.slice(1) || 'caixa') as Screen;
type Screen = 'caixa' | LazyScreen | 'quiosque';

const nav: readonly { href: string; label: string }[] = [
  { href: '/', label: 'Caixa' },
  { href: '/premios', label: 'Prêmios' },
  { href: '/painel', label: 'Painel' },
  { href: '/lancamentos', label: 'Lançamentos' },
  { href: '/auditoria', label: 'Auditoria' },
  { href: '/vigilancia', label: 'Vigilância' },
  { href: '/terminais', label: 'Terminais' },
  { href: '/quiosque', label: 'Quiosque' },
];

/** A role as the header names it: `Caixa`, `Gerente`, `Quiosque`, `Rede`. */
const roleLabel = (role: Terminal['role']) => role[0]!.toUpperCase() + role.slice(1);

const loading = (
  <p role="status" className="p-8">
    Carregando…
  </p>
);

function Shell({ config, terminal }: { config: AppConfig; terminal: Terminal }) {
  const { pathname } = useLocation();
  const may = terminal.navigation;
  const view = viewOf(pathname, terminal);
  // The kiosk runs full screen: no header, no navigation, nothing that leads elsewhere.
  if (view === 'quiosque') {
    return (
      <Suspense fallback={loading}>
        <QuiosqueRoute onExit={() => may.caixa && navigate('/')} />
      </Suspense>
    );
  }
  // Only what the role may use (the server refuses the rest anyway).
  // A terminal with the counter reads every terminal's ledger in its "Lançamentos do turno"
  // (the screen answers it at /lancamentos too); the link is the chain's rede's.
  const allowed = nav.filter(
    (item) => may[screenOf(item.href)] && !(item.href === '/lancamentos' && may.caixa),
  );
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="isolate flex flex-wrap items-center gap-x-6 gap-y-1 bg-slate-900 px-4 py-2 text-white print:hidden">
        <p className="text-lg font-bold">
          <span aria-hidden="true" className="text-amber-400">
            ★{' '}
          </span>
          Fidelidade PDV
        </p>
        <nav aria-label="Principal">
          <ul className="flex gap-1 flex-wrap">
            {allowed.map((item) => {
              const current = item.href === '/' ? pathname === '/' : pathname.startsWith(item.href);
              return (
                <li key={item.href}>
                  <Link
                    href={item.href}
                    aria-current={current ? 'page' : undefined}
                    className={`block rounded-md px-3 py-2 font-semibold ${
                      current ? 'bg-white text-slate-900' : 'text-slate-100 hover:bg-slate-700'
                    }`}
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <p
          className="ml-auto flex flex-wrap items-center gap-x-3 gap-y-1 text-sm"
          data-testid="connection"
        >
          <span data-testid="terminal">
            <span className="text-slate-300">Terminal </span>
            <strong>{terminal.name}</strong>
            <span className="text-slate-300"> · {roleLabel(terminal.role)}</span>
          </span>
          <span>
            <span className="text-slate-300">Estabelecimento </span>
            <strong>{config.establishmentName ?? `#${config.establishmentId}`}</strong>
            {config.establishmentName && (
              <span className="text-slate-300"> · nº {config.establishmentId}</span>
            )}
          </span>
          {config.mode === 'sandbox' ? (
            <span className="rounded bg-amber-300 px-2 py-0.5 font-bold whitespace-nowrap text-slate-950">
              Sandbox (demonstração)
            </span>
          ) : (
            <span className="rounded bg-emerald-300 px-2 py-0.5 font-bold whitespace-nowrap text-slate-950">
              Serviço real
            </span>
          )}
        </p>
      </header>
      <Suspense fallback={loading}>
        <Routes view={view} config={config} terminal={terminal} />
      </Suspense>
    </div>
  );
}

function Routes({ view, config, terminal }: { view: View; config: AppConfig; terminal: Terminal }) {
  if (view === 'not-allowed') return <NotAllowed home={allowedHome(terminal)} />;
  if (view === 'caixa') return <CaixaRoute config={config} />;
  // The kiosk is shown full screen by Shell, never here.
  if (lazyScreen(view)) {
    const Screen = screens[view][0] as ComponentType;
    return <Screen />;
  }
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Página não encontrada</h1>
      <p className="mt-2">
        <Link href="/" className="text-blue-800 underline">
          Voltar ao caixa
        </Link>
      </p>
    </main>
  );
}

function allowedHome(terminal: Terminal): { href: string; label: string } {
  const nav = terminal.navigation;
  return nav.caixa
    ? { href: '/', label: 'Voltar ao caixa' }
    : nav.painel
      ? { href: '/painel', label: 'Ir para o painel' }
      : { href: '/quiosque', label: 'Ir para o quiosque' };
}

function NotAllowed({ home }: { home: { href: string; label: string } }) {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Este terminal não tem acesso a esta tela</h1>
      <p className="mt-2 text-slate-800">
        O que cada terminal pode usar depende do seu papel. Se precisar desta tela, peça ao gerente.
      </p>
      <p className="mt-2">
        <Link href={home.href} className="text-blue-800 underline">
          {home.label}
        </Link>
      </p>
    </main>
  );
}
