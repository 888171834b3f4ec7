// The counter ("Caixa"): find or register the customer and post the purchase's points.
// This route composes the customers and points features; neither imports the other's state.
import { Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AppConfig, Customer } from '@/api/schemas';
import type { LookupKey } from '@/api/keys';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatPhoneDisplay } from '@/lib/phone';
import type { LookupClassification } from '@/lib/lookup';
import { customerQuery, useCustomer } from '@/features/customers/api/find-customer';
import { primeCustomer } from '@/features/customers/api/register-customer';
import { CustomerSearch } from '@/features/customers/components/customer-search';
import { listRewards } from '@/features/rewards/api/list-rewards';
import { PostingStatus } from '@/features/points/components/posting-status';
import { ShiftDialog } from '@/features/points/components/shift-dialog';
import { ShiftProvider, useShift } from '@/features/points/shift';
import { usePosting, type RereadTarget } from '@/features/points/use-posting';
import {
  CustomerPanel,
  PostedPanel,
  prefetchCounterParts,
  RegisterForm,
  SalePanel,
} from './counter-parts';

export function CaixaRoute({ config }: { config: AppConfig }) {
  return (
    <ShiftProvider>
      <Counter config={config} />
    </ShiftProvider>
  );
}

type Typed = { celular?: string; cpf?: string; display: string };

function typedOf(c: LookupClassification): Typed {
  if (c.kind === 'phone') return { celular: c.celular, display: `celular ${c.display}` };
  if (c.kind === 'cpf') return { cpf: c.cpf, display: `CPF ${c.display}` };
  if (c.kind === 'id') return { display: `código ${c.display}` };
  return { display: '' };
}

function Counter({ config }: { config: AppConfig }) {
  const qc = useQueryClient();
  const shift = useShift();
  const [key, setKey] = useState<LookupKey | null>(null);
  const [typed, setTyped] = useState<Typed | null>(null);
  const [registering, setRegistering] = useState(false);
  // A new number starts a new sale: the search and sale forms remount empty.
  const [saleNo, setSaleNo] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const amountEl = useRef<HTMLInputElement | null>(null);
  // Set by a search: the amount field takes the focus as soon as the result is shown.
  const focusAmount = useRef(false);
  const amountRef = useCallback((el: HTMLInputElement | null) => {
    amountEl.current = el;
    if (el && focusAmount.current) {
      focusAmount.current = false;
      el.focus();
    }
  }, []);

  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1));
    idle(() => prefetchCounterParts());
  }, []);

  const lookup = useCustomer(key);
  const customer: Customer | null | undefined = lookup.data;

  const reread = useCallback(
    (target: RereadTarget) =>
      qc.fetchQuery({
        ...customerQuery(
          'id_cliente' in target
            ? { kind: 'id', id_cliente: target.id_cliente }
            : { kind: 'phone', celular: target.celular },
        ),
        staleTime: 0,
        retry: 2,
      }),
    [qc],
  );
  const posting = usePosting({
    reread,
    newestRewardNames: async (id_cliente, count) => {
      const page = await listRewards({ id_cliente, itens_por_pagina: Math.min(count, 100) });
      return page.data.slice(0, count).map((r) => r.nome);
    },
    onPasswordRejected: () => shift.close('rejected'),
    // A customer registered by the posting itself: show their panel from now on.
    onPosted: (p) => {
      if (customer === null) setKey({ kind: 'id', id_cliente: p.id_cliente });
    },
  });
  const { phase, reset: resetPosting } = posting;
  const busyPosting =
    phase.name === 'sending' || phase.name === 'verifying' || phase.name === 'verify-failed';

  const nextCustomer = useCallback(() => {
    resetPosting();
    setKey(null);
    setTyped(null);
    setRegistering(false);
    setSaleNo((n) => n + 1);
  }, [resetPosting]);

  // After a sale is cleared, the search field (remounted) takes the focus.
  useEffect(() => {
    searchRef.current?.focus();
  }, [saleNo]);

  // A finished search moves the focus to the amount: phone, Enter, amount, Enter.
  useEffect(() => {
    if (focusAmount.current && !lookup.isFetching && lookup.isSuccess && amountEl.current) {
      focusAmount.current = false;
      amountEl.current.focus();
    }
  }, [lookup.isFetching, lookup.isSuccess, customer]);

  // F2 goes back to the search field from anywhere on the counter.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F2') {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      } else if (e.key === 'F3' && customer === null && !registering) {
        e.preventDefault();
        setRegistering(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [customer, registering]);

  const search = (k: LookupKey, c: LookupClassification) => {
    if (phase.name === 'posted') {
      posting.reset();
      setSaleNo((n) => n + 1);
    }
    setRegistering(false);
    setTyped(typedOf(c));
    focusAmount.current = true;
    setKey(k);
    // Every search at the counter reads the service again: a balance must be current.
    void qc.invalidateQueries({ queryKey: customerQuery(k).queryKey, exact: true });
  };

  const showCustomer = (c: Customer) => {
    primeCustomer(qc, c);
    setRegistering(false);
    setKey({ kind: 'id', id_cliente: c.id_cliente });
    focusAmount.current = true;
  };

  const posted = phase.name === 'posted' ? phase.posted : null;

  const notFound = customer === null && !lookup.isFetching;

  return (
    <main className="flex flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-300 bg-white px-4 py-1.5 text-sm print:hidden">
        <h1 className="sr-only">Caixa</h1>
        <p className="text-slate-700" aria-label="Atalhos do teclado">
          <Kbd>F2</Kbd> buscar · <Kbd>Enter</Kbd> confirmar · <Kbd>F3</Kbd> cadastrar ·{' '}
          <Kbd>F4</Kbd> item · <Kbd>F8</Kbd> usar total dos itens · <Kbd>F9</Kbd> imprimir ·{' '}
          <Kbd>Esc</Kbd> próximo cliente
        </p>
        <p className="ml-auto flex items-center gap-2">
          <span className="text-slate-700">
            {shift.password ? '● Turno aberto' : '○ Turno fechado'}
          </span>
          <Button
            variant="secondary"
            className="min-h-9 py-1"
            onClick={() => shift.close()}
            disabled={!shift.password}
          >
            Encerrar turno
          </Button>
        </p>
      </div>

      <div className="grid flex-1 grid-cols-1 gap-4 p-4 md:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] print:block">
        <div className="flex min-w-0 flex-col gap-4 print:hidden">
          <div className="rounded-lg border border-slate-300 bg-white p-4">
            <CustomerSearch
              key={saleNo}
              inputRef={searchRef}
              onSearch={search}
              busy={lookup.isFetching}
              disabled={busyPosting}
            />
          </div>
          {key && lookup.isFetching && (
            <p
              role="status"
              className="rounded-lg border border-slate-300 bg-white p-4 text-slate-700"
            >
              Buscando cliente…
            </p>
          )}
          {key && lookup.isError && !lookup.isFetching && (
            <Alert tone="error" title="Não foi possível buscar o cliente.">
              <p>{lookup.error.message}</p>
              <div>
                <Button variant="secondary" onClick={() => void lookup.refetch()}>
                  Tentar de novo
                </Button>
              </div>
            </Alert>
          )}
          {customer && !lookup.isFetching && (
            <Loading>
              <CustomerPanel customer={customer} />
            </Loading>
          )}
          {notFound && typed && (
            <section
              aria-labelledby="not-found-title"
              className="flex flex-col gap-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-amber-950"
            >
              <h2 id="not-found-title" className="text-lg font-bold">
                Cliente não encontrado
              </h2>
              <p>
                Nenhum cliente com {typed.display} neste estabelecimento.{' '}
                {typed.celular || typed.cpf
                  ? 'Cadastre agora ou lance os pontos ao lado: o cliente é cadastrado junto.'
                  : 'Confira o código ou busque pelo celular ou CPF.'}
              </p>
              {(typed.celular || typed.cpf) && !registering && (
                <div>
                  <Button onClick={() => setRegistering(true)} shortcut="F3">
                    Cadastrar cliente
                  </Button>
                </div>
              )}
            </section>
          )}
        </div>

        <div className="flex min-w-0 flex-col gap-4">
          <PostingStatus phase={phase} onVerify={() => void posting.verify()} />
          {posted ? (
            <div className="rounded-lg border border-slate-300 bg-white p-4">
              <Loading>
                <PostedPanel
                  posted={posted}
                  customerName={customer?.nome ?? null}
                  celular={customer?.celular ?? typed?.celular ?? ''}
                  establishment={
                    config.establishmentName ?? `Estabelecimento ${config.establishmentId}`
                  }
                  onNext={nextCustomer}
                />
              </Loading>
            </div>
          ) : registering && notFound && typed ? (
            <div className="rounded-lg border border-slate-300 bg-white p-4">
              <Loading>
                <RegisterForm
                  initial={{
                    celular: typed.celular ? formatPhoneDisplay(typed.celular) : undefined,
                    cpf: typed.cpf,
                  }}
                  onRegistered={showCustomer}
                  onOpenExisting={(id: number) => {
                    setRegistering(false);
                    focusAmount.current = true;
                    setKey({ kind: 'id', id_cliente: id });
                  }}
                  onCancel={() => setRegistering(false)}
                />
              </Loading>
            </div>
          ) : key && (customer || (notFound && (typed?.celular || typed?.cpf))) ? (
            <div className="rounded-lg border border-slate-300 bg-white p-4">
              <Loading>
                <SalePanel
                  key={`${saleNo}:${customer ? customer.id_cliente : 'new'}`}
                  customer={customer ?? null}
                  newCustomer={
                    typed
                      ? {
                          celular: typed.celular ? formatPhoneDisplay(typed.celular) : '',
                          cpf: typed.cpf ?? '',
                        }
                      : undefined
                  }
                  password={shift.password}
                  posting={posting}
                  amountRef={amountRef}
                />
              </Loading>
            </div>
          ) : (
            <div className="rounded-lg border border-dashed border-slate-400 bg-white p-6 text-slate-700">
              <h2 className="text-lg font-bold text-slate-900">Lançar pontos</h2>
              <p className="mt-1">
                Busque o cliente pelo celular, CPF ou código para lançar os pontos da compra.
                Cliente novo? Busque pelo celular e cadastre na hora.
              </p>
            </div>
          )}
        </div>
      </div>
      <ShiftDialog
        onOpened={(after) =>
          after === 'rejected' ? amountEl.current?.focus() : searchRef.current?.focus()
        }
      />
    </main>
  );
}

function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p role="status" className="rounded-lg border border-slate-300 bg-white p-4 text-slate-700">
          Carregando…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}

function Kbd({ children }: { children: string }) {
  return (
    <kbd className="rounded border border-slate-400 bg-slate-100 px-1 font-sans text-xs font-semibold text-slate-900">
      {children}
    </kbd>
  );
}
