import { lazy, Suspense, useState } from 'react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createQueryClient } from '@/api/query-client';
import { configQuery } from '@/api/client';
import type { AppConfig } from '@/api/schemas';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Link, useLocation } from '@/lib/router';
import { CaixaRoute } from './routes/caixa';

const PremiosRoute = lazy(() => import('./routes/premios'));
const QuiosqueRoute = lazy(() => import('./routes/quiosque'));

export function App() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <ConfigGate />
    </QueryClientProvider>
  );
}

/** Nothing talks to the service before we know which establishment we are connected to. */
function ConfigGate() {
  const config = useQuery(configQuery());
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
  return <Shell config={config.data} />;
}

const nav = [
  { href: '/', label: 'Caixa' },
  { href: '/premios', label: 'Prêmios' },
  { href: '/quiosque', label: 'Quiosque' },
] as const;

function Shell({ config }: { config: AppConfig }) {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex flex-wrap items-center gap-x-6 gap-y-1 bg-slate-900 px-4 py-2 text-white print:hidden">
        <p className="text-lg font-bold">
          <span aria-hidden="true" className="text-amber-400">
            ★{' '}
          </span>
          Fidelidade PDV
        </p>
        <nav aria-label="Principal">
          <ul className="flex gap-1">
            {nav.map((item) => {
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
        <p className="ml-auto flex items-center gap-3 text-sm" data-testid="connection">
          <span>
            <span className="text-slate-300">Estabelecimento </span>
            <strong>{config.establishmentName ?? `#${config.establishmentId}`}</strong>
            {config.establishmentName && (
              <span className="text-slate-300"> · nº {config.establishmentId}</span>
            )}
          </span>
          {config.mode === 'sandbox' ? (
            <span className="rounded bg-amber-300 px-2 py-0.5 font-bold text-slate-950">
              Sandbox (demonstração)
            </span>
          ) : (
            <span className="rounded bg-emerald-300 px-2 py-0.5 font-bold text-slate-950">
              Serviço real
            </span>
          )}
        </p>
      </header>
      <Suspense
        fallback={
          <p role="status" className="p-8">
            Carregando…
          </p>
        }
      >
        <Routes pathname={pathname} config={config} />
      </Suspense>
    </div>
  );
}

function Routes({ pathname, config }: { pathname: string; config: AppConfig }) {
  if (pathname === '/') return <CaixaRoute config={config} />;
  if (pathname === '/premios') return <PremiosRoute />;
  if (pathname === '/quiosque') return <QuiosqueRoute />;
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
