// The customer-facing kiosk: check points by phone, claim a sale the counter sent, register
// with consent. Full screen, touch only, no link anywhere; leaving asks the attendant password.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { isApiError } from '@/api/errors';
import { useLatest } from '@/hooks/use-latest';
import { VALOR_GASTO_MAX as MAX_CENTS } from '@/api/wire';
import {
  claimSale,
  currentSale,
  exitKiosk,
  lookupBalance,
  registerCustomer,
  stageHere,
  subscribeSales,
  type KioskCustomer,
  type StagedSale,
} from './api';
import { formatTypedPhone, Keypad, keyClass, phoneProblem } from './keypad';
import { formatBRL } from '@/lib/money';

// Date formatting written here rather than imported from lib/: a module this chunk shared with
// the counter's chunks would make the bundler split the counter's entry (+1.3 KB on its first
// load). Money comes from lib/money, which is in the entry already.
/** "2026-12-18" or "2026-12-18 23:59:59" → "18/12/2026". */
const formatDate = (wire: string) =>
  /^\d{4}-\d{2}-\d{2}/.test(wire)
    ? `${wire.slice(8, 10)}/${wire.slice(5, 7)}/${wire.slice(0, 4)}`
    : wire;

/** Without a touch this long, the kiosk asks whether someone is still there… */
export const IDLE_MS = 30_000;
/** …and goes back to the welcome screen after this countdown. */
export const COUNTDOWN_S = 10;

type Screen =
  | { name: 'welcome' }
  | { name: 'phone' }
  | { name: 'consent'; celular: string }
  | { name: 'balance'; customer: KioskCustomer }
  | { name: 'claiming' }
  | { name: 'result'; sale: StagedSale }
  | { name: 'staff' }
  | { name: 'exited' };

const toE164 = (digits: string) => `+55${digits}`;
/** The server's answer to too many phone lookups from this kiosk (anti-enumeration). */
const LOOKUPS_LIMITED = 'Muitas consultas seguidas. Aguarde um minuto.';

export function KioskScreen({ onExit }: { onExit: () => void }) {
  const [screen, setScreen] = useState<Screen>({ name: 'welcome' });
  const [digits, setDigits] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sale, setSale] = useState<StagedSale | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const online = useOnline();
  const claimingId = useRef<string | null>(null);

  const reset = useCallback(() => {
    // The customer's data leaves memory (it never enters the query cache: lookups are
    // plain requests whose answers live only in this screen's state).
    setDigits('');
    setError(null);
    setBusy(false);
    setNotice(null);
    claimingId.current = null;
    setScreen({ name: 'welcome' });
  }, []);

  // Staged sales pushed by the server.
  useEffect(
    () =>
      subscribeSales({
        onSale: (next) => {
          setSale(next);
          if (next === null) return;
          if (next.estado === 'lançando') {
            claimingId.current = next.id;
            setScreen({ name: 'claiming' });
          } else if (next.id === claimingId.current && next.estado !== 'aguardando') {
            claimingId.current = null;
            setScreen({ name: 'result', sale: next });
          } else if (next.estado === 'cancelado' || next.estado === 'expirado') {
            setNotice(next.mensagem);
            setScreen((s) =>
              s.name === 'phone' || s.name === 'consent' ? { name: 'welcome' } : s,
            );
            setDigits('');
          } else if (next.estado === 'aguardando') {
            setNotice(null);
            setDigits('');
            setError(null);
            setScreen((s) => (s.name === 'staff' || s.name === 'exited' ? s : { name: 'phone' }));
          }
        },
      }),
    [],
  );

  useEffect(() => {
    // Registers the kiosk's offline shell (only the kiosk: the counter's first load is untouched).
    if ('serviceWorker' in navigator && import.meta.env.PROD) {
      void navigator.serviceWorker
        .register('/sw.js')
        .then(() => navigator.serviceWorker.ready)
        .then((reg) => {
          const loaded = performance
            .getEntriesByType('resource')
            .map((e) => new URL(e.name).pathname)
            .filter((p) => p.startsWith('/assets/'));
          reg.active?.postMessage({ cache: loaded });
        })
        .catch(() => undefined);
    }
  }, []);

  const waiting = sale?.estado === 'aguardando' ? sale : null;
  const idle = useIdle(screen.name !== 'welcome' && screen.name !== 'exited', reset);

  /** `lookup`: a phone lookup, which the server allows only a few times a minute per kiosk. */
  const fail = (err: unknown, lookup = false) => {
    setBusy(false);
    if (isApiError(err) && (err.kind === 'network' || err.kind === 'timeout')) return;
    if (lookup && isApiError(err) && err.status === 429) return setError(LOOKUPS_LIMITED);
    if (isApiError(err)) {
      setError(
        err.fieldError('celular') ??
          err.fieldError('senha_atendente') ??
          err.fieldError('valor_gasto') ??
          err.message,
      );
    } else setError('Algo deu errado. Tente de novo.');
  };

  const submitPhone = async () => {
    const problem = phoneProblem(digits);
    if (problem) return setError(problem);
    setError(null);
    setBusy(true);
    const celular = toE164(digits);
    try {
      if (waiting) {
        const known = await lookupBalance(celular);
        if (!known.cadastrado) {
          setBusy(false);
          return setScreen({ name: 'consent', celular });
        }
        await claim(waiting, { celular });
      } else {
        const found = await lookupBalance(celular);
        setBusy(false);
        if (found.cliente) setScreen({ name: 'balance', customer: found.cliente });
        else setScreen({ name: 'consent', celular });
      }
    } catch (err) {
      fail(err, true);
    }
  };

  const claim = async (target: StagedSale, body: Parameters<typeof claimSale>[1]) => {
    claimingId.current = target.id;
    setScreen({ name: 'claiming' });
    try {
      const { venda } = await claimSale(target.id, body);
      claimingId.current = null;
      setBusy(false);
      if (venda) setScreen({ name: 'result', sale: venda });
    } catch (err) {
      claimingId.current = null;
      setBusy(false);
      if (isApiError(err) && err.status === 409) {
        const taken = (err.data as { venda?: StagedSale } | null)?.venda;
        setNotice(taken?.mensagem ?? err.message);
        setScreen({ name: 'welcome' });
        return;
      }
      setScreen({ name: 'phone' });
      fail(err);
    }
  };

  const register = async (celular: string, nome: string) => {
    setBusy(true);
    setError(null);
    const body = { celular, consentimento: true as const, ...(nome.trim() ? { nome } : {}) };
    try {
      if (waiting) return await claim(waiting, body);
      const done = await registerCustomer(body);
      setBusy(false);
      if (done.cliente) setScreen({ name: 'balance', customer: done.cliente });
    } catch (err) {
      fail(err, true);
    }
  };

  let content: ReactNode;
  switch (screen.name) {
    case 'welcome':
      content = (
        <Welcome
          notice={notice}
          onStart={() => {
            enterFullscreen();
            setNotice(null);
            setScreen({ name: 'phone' });
          }}
        />
      );
      break;
    case 'phone':
      content = (
        <PhoneEntry
          title={
            waiting
              ? `Digite seu celular para ganhar seus pontos de ${formatBRL(waiting.valor_gasto)}`
              : 'Digite seu celular para ver seus pontos'
          }
          digits={digits}
          setDigits={(d) => {
            setError(null);
            setDigits(d);
          }}
          error={error}
          busy={busy}
          onSubmit={() => void submitPhone()}
          onBack={waiting ? undefined : reset}
        />
      );
      break;
    case 'consent':
      content = (
        <Consent
          forSale={waiting}
          busy={busy}
          error={error}
          onAccept={(nome) => void register(screen.celular, nome)}
          onDecline={reset}
        />
      );
      break;
    case 'balance':
      content = <Balance customer={screen.customer} onDone={reset} />;
      break;
    case 'claiming':
      content = (
        <Centered>
          <h1 className="text-4xl font-bold">Lançando seus pontos…</h1>
          <p role="status" className="text-2xl">
            Um instante.
          </p>
        </Centered>
      );
      break;
    case 'result':
      content = <ClaimResult sale={screen.sale} onDone={reset} />;
      break;
    case 'staff':
      content = (
        <Staff
          onBack={reset}
          onStaged={(venda) => {
            reset();
            setSale(venda);
            setScreen({ name: 'phone' });
          }}
          onExited={() => {
            reset();
            leaveFullscreen();
            setScreen({ name: 'exited' });
            onExit();
          }}
        />
      );
      break;
    case 'exited':
      content = (
        <Centered>
          <h1 className="text-4xl font-bold">Modo quiosque encerrado</h1>
          <button
            type="button"
            onClick={() => setScreen({ name: 'welcome' })}
            className={`${keyClass} bg-amber-400 px-8 text-2xl text-slate-950`}
          >
            Voltar ao modo quiosque
          </button>
        </Centered>
      );
      break;
  }

  return (
    <div className="relative flex min-h-dvh flex-col bg-slate-900 text-white">
      {!online ? (
        <Centered>
          <h1 className="text-5xl font-bold">Sem conexão</h1>
          <p role="status" className="max-w-xl text-center text-2xl">
            O quiosque está sem rede. Assim que a conexão voltar, ele volta sozinho.
          </p>
        </Centered>
      ) : (
        <main className="flex flex-1 flex-col">{content}</main>
      )}
      {screen.name !== 'staff' && screen.name !== 'exited' && (
        <button
          type="button"
          onClick={() => setScreen({ name: 'staff' })}
          className="absolute right-2 bottom-2 min-h-12 min-w-12 touch-manipulation rounded-lg px-3 text-sm text-slate-300 active:bg-slate-700"
        >
          Atendente
        </button>
      )}
      {idle !== null && (
        <div
          role="alertdialog"
          aria-modal="true"
          aria-labelledby="idle-title"
          className="fixed inset-0 z-10 flex items-center justify-center bg-slate-950/85 p-6"
        >
          <div className="flex max-w-lg flex-col items-center gap-6 rounded-2xl bg-white p-8 text-center text-slate-950">
            <h2 id="idle-title" className="text-3xl font-bold">
              Ainda está aí?
            </h2>
            <p className="text-2xl" aria-live="polite">
              Voltando ao início em <strong data-testid="countdown">{idle}</strong> s
            </p>
            <button type="button" className={`${keyClass} bg-amber-400 px-8 text-2xl`}>
              Continuar
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-8 p-8 text-center">
      {children}
    </div>
  );
}

function Welcome({ notice, onStart }: { notice: string | null; onStart: () => void }) {
  return (
    <Centered>
      <p aria-hidden="true" className="text-6xl text-amber-400">
        ★
      </p>
      <h1 className="text-5xl font-bold">Programa de fidelidade</h1>
      {notice && (
        <p role="status" className="rounded-xl bg-amber-200 px-6 py-3 text-2xl text-slate-950">
          {notice}
        </p>
      )}
      <button
        type="button"
        onClick={onStart}
        className={`${keyClass} bg-amber-400 px-10 py-6 text-3xl text-slate-950 active:bg-amber-300`}
      >
        Consultar meus pontos
      </button>
    </Centered>
  );
}

function PhoneEntry(props: {
  title: string;
  digits: string;
  setDigits: (d: string) => void;
  error: string | null;
  busy: boolean;
  onSubmit: () => void;
  onBack?: () => void;
}) {
  const { digits, setDigits } = props;
  const add = useCallback(
    (d: string) => setDigits(digits.length >= 11 ? digits : digits + d),
    [digits, setDigits],
  );
  const back = useCallback(() => setDigits(digits.slice(0, -1)), [digits, setDigits]);
  return (
    <div className="grid flex-1 gap-8 p-6 landscape:grid-cols-2 landscape:items-center">
      <div className="flex flex-col gap-6">
        <h1 className="text-4xl leading-tight font-bold">{props.title}</h1>
        <label className="flex flex-col gap-2 text-xl">
          Celular com DDD
          <input
            readOnly
            inputMode="none"
            value={formatTypedPhone(digits)}
            placeholder="(00) 00000-0000"
            aria-invalid={props.error ? true : undefined}
            aria-describedby={props.error ? 'phone-error' : undefined}
            className="rounded-xl border-4 border-amber-400 bg-white px-4 py-4 text-4xl font-bold tracking-wide text-slate-950 tabular-nums placeholder:text-slate-500"
          />
        </label>
        {props.error && (
          <p
            id="phone-error"
            role="alert"
            className="rounded-lg bg-red-100 p-3 text-xl text-red-900"
          >
            {props.error}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-3">
        <Keypad
          onDigit={add}
          onBackspace={back}
          onClear={() => setDigits('')}
          disabled={props.busy}
        />
        <button
          type="button"
          onClick={props.onSubmit}
          disabled={props.busy}
          aria-busy={props.busy || undefined}
          className={`${keyClass} bg-emerald-600 text-white active:bg-emerald-700`}
        >
          {props.busy ? 'Consultando…' : 'Confirmar'}
        </button>
        {props.onBack && (
          <button
            type="button"
            onClick={props.onBack}
            className={`${keyClass} bg-slate-700 text-2xl text-white`}
          >
            Voltar
          </button>
        )}
      </div>
    </div>
  );
}

function Consent(props: {
  forSale: StagedSale | null;
  busy: boolean;
  error: string | null;
  onAccept: (nome: string) => void;
  onDecline: () => void;
}) {
  const [nome, setNome] = useState('');
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center gap-6 p-6">
      <h1 className="text-4xl font-bold">Cadastre-se no programa</h1>
      <div className="rounded-xl bg-white p-6 text-xl leading-relaxed text-slate-950">
        <h2 className="mb-2 text-2xl font-bold">Uso dos seus dados</h2>
        <p>
          Para participar, guardamos seu celular e, se você quiser, seu nome. Eles servem só para
          somar seus pontos, avisar seus prêmios e identificar você nas compras desta loja. Não
          vendemos nem compartilhamos seus dados. Você pode pedir a correção ou a exclusão do seu
          cadastro no caixa a qualquer momento (Lei Geral de Proteção de Dados, LGPD).
        </p>
      </div>
      <label className="flex flex-col gap-2 text-xl">
        Seu nome (opcional)
        <input
          value={nome}
          onChange={(e) => setNome(e.target.value)}
          maxLength={120}
          autoComplete="off"
          className="rounded-xl border-4 border-slate-300 bg-white px-4 py-3 text-3xl text-slate-950"
        />
      </label>
      {props.error && (
        <p role="alert" className="rounded-lg bg-red-100 p-3 text-xl text-red-900">
          {props.error}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <button
          type="button"
          onClick={props.onDecline}
          className={`${keyClass} bg-slate-300 px-6 text-2xl text-slate-950`}
        >
          Não, obrigado
        </button>
        <button
          type="button"
          disabled={props.busy}
          onClick={() => props.onAccept(nome)}
          className={`${keyClass} bg-emerald-600 px-6 text-2xl text-white active:bg-emerald-700`}
        >
          {props.forSale ? 'Aceito: cadastrar e ganhar pontos' : 'Aceito e quero me cadastrar'}
        </button>
      </div>
    </div>
  );
}

export function CustomerFacts({ customer }: { customer: KioskCustomer }) {
  return (
    <dl className="grid w-full max-w-3xl gap-4 text-left sm:grid-cols-2">
      <Fact label="Seu saldo">
        <span className="text-6xl font-bold text-amber-300">{customer.saldo}</span> pontos
      </Fact>
      {customer.saldo_carencia > 0 && (
        <Fact label="Em carência">
          {customer.saldo_carencia} pontos, liberados em{' '}
          {customer.carencia_liberada_em ? formatDate(customer.carencia_liberada_em) : 'breve'}
        </Fact>
      )}
      <Fact label="Próximo vencimento">
        {customer.proximo_vencimento
          ? `${customer.proximo_vencimento.pontos} pontos em ${formatDate(customer.proximo_vencimento.data_validade)}`
          : 'Nenhum ponto a vencer'}
      </Fact>
      <Fact label="Prêmios para retirar">
        {customer.premios_pendentes.length === 0 ? (
          'Nenhum por enquanto'
        ) : (
          <>
            <ul className="flex flex-col gap-1">
              {customer.premios_pendentes.map((p, i) => (
                <li key={i}>
                  <strong>{p.nome}</strong>, válido até {formatDate(p.valido_ate)}
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xl text-amber-300">Peça no caixa.</p>
          </>
        )}
      </Fact>
    </dl>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl bg-slate-800 p-5 text-2xl">
      <dt className="text-lg text-slate-300">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Balance({ customer, onDone }: { customer: KioskCustomer; onDone: () => void }) {
  return (
    <Centered>
      <h1 className="text-4xl font-bold">
        {customer.primeiro_nome ? `Olá, ${customer.primeiro_nome}!` : 'Olá!'}
      </h1>
      <p className="text-xl text-slate-300">Celular {customer.celular}</p>
      <CustomerFacts customer={customer} />
      <button
        type="button"
        onClick={onDone}
        className={`${keyClass} bg-amber-400 px-10 text-2xl text-slate-950`}
      >
        Concluir
      </button>
    </Centered>
  );
}

function ClaimResult({ sale, onDone }: { sale: StagedSale; onDone: () => void }) {
  const ok = sale.estado === 'lançado';
  return (
    <Centered>
      {ok ? (
        <>
          <h1 className="text-5xl font-bold text-emerald-300">
            {sale.pontos !== null ? `Você ganhou ${sale.pontos} pontos!` : 'Pontos lançados!'}
          </h1>
          <p className="text-2xl">Compra de {formatBRL(sale.valor_gasto)}</p>
          {sale.cliente && <CustomerFacts customer={sale.cliente} />}
        </>
      ) : (
        <>
          <h1 className="text-4xl font-bold">Não foi possível lançar seus pontos</h1>
          <p className="max-w-2xl text-2xl">{sale.mensagem ?? 'Chame o caixa.'}</p>
        </>
      )}
      <button
        type="button"
        onClick={onDone}
        className={`${keyClass} bg-amber-400 px-10 text-2xl text-slate-950`}
      >
        Concluir
      </button>
    </Centered>
  );
}

/** The attendant's area: leave kiosk mode, or stage a sale here (no counter paired). */
function Staff({
  onBack,
  onExited,
  onStaged,
}: {
  onBack: () => void;
  onExited: () => void;
  onStaged: (sale: StagedSale) => void;
}) {
  const [field, setField] = useState<'senha' | 'valor'>('senha');
  const [senha, setSenha] = useState('');
  const [valor, setValor] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const digit = useCallback(
    (d: string) => {
      setError(null);
      if (field === 'senha') setSenha((s) => (s.length >= 20 ? s : s + d));
      else setValor((v) => (v * 10 + Number(d) > MAX_CENTS ? v : v * 10 + Number(d)));
    },
    [field],
  );
  const back = useCallback(() => {
    if (field === 'senha') setSenha((s) => s.slice(0, -1));
    else setValor((v) => Math.floor(v / 10));
  }, [field]);
  const run = async (action: () => Promise<void>) => {
    if (senha === '') return setError('Digite a senha do atendente.');
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setBusy(false);
      setSenha('');
      setError(
        isApiError(err)
          ? (err.fieldError('senha_atendente') ?? err.fieldError('valor_gasto') ?? err.message)
          : 'Algo deu errado.',
      );
    }
  };
  const fieldClass = (active: boolean) =>
    `min-h-16 rounded-xl border-4 bg-white px-4 text-3xl text-slate-950 ${active ? 'border-amber-400' : 'border-slate-400'}`;
  return (
    <div className="grid flex-1 gap-8 p-6 landscape:grid-cols-2 landscape:items-center">
      <div className="flex flex-col gap-4">
        <h1 className="text-4xl font-bold">Área do atendente</h1>
        <label className="flex flex-col gap-2 text-xl">
          Senha do atendente
          <input
            type="password"
            readOnly
            inputMode="none"
            value={senha}
            onFocus={() => setField('senha')}
            onClick={() => setField('senha')}
            className={fieldClass(field === 'senha')}
          />
        </label>
        <label className="flex flex-col gap-2 text-xl">
          Valor da venda (para lançar aqui)
          <input
            readOnly
            inputMode="none"
            value={formatBRL(valor)}
            onFocus={() => setField('valor')}
            onClick={() => setField('valor')}
            className={`tabular-nums ${fieldClass(field === 'valor')}`}
          />
        </label>
        {error && (
          <p role="alert" className="rounded-lg bg-red-100 p-3 text-xl text-red-900">
            {error}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-3">
        <Keypad
          onDigit={digit}
          onBackspace={back}
          onClear={() => (field === 'senha' ? setSenha('') : setValor(0))}
          disabled={busy}
        />
        <button
          type="button"
          disabled={busy || valor === 0}
          onClick={() =>
            void run(async () => {
              const { venda } = await stageHere({ valor_gasto: valor, senha_atendente: senha });
              if (venda) onStaged(venda);
            })
          }
          className={`${keyClass} bg-emerald-600 px-4 text-2xl text-white`}
        >
          Enviar {valor > 0 ? formatBRL(valor) : 'venda'} para o cliente
        </button>
        <div className="grid grid-cols-2 gap-3">
          <button
            type="button"
            onClick={onBack}
            className={`${keyClass} bg-slate-700 text-2xl text-white`}
          >
            Voltar
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                await exitKiosk(senha);
                onExited();
              })
            }
            className={`${keyClass} bg-red-700 px-4 text-2xl text-white`}
          >
            Sair do modo quiosque
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * Seconds left of the idle countdown (null while someone is using the kiosk). Any touch or
 * key restarts the wait; the countdown reaching 0 calls `onTimeout`.
 */
function useIdle(active: boolean, onTimeout: () => void): number | null {
  const [left, setLeft] = useState<number | null>(null);
  const timeout = useLatest(onTimeout);
  useEffect(() => {
    if (!active) return;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let tick: ReturnType<typeof setInterval> | undefined;
    const wait = () => {
      idleTimer = setTimeout(() => {
        let n = COUNTDOWN_S;
        setLeft(n);
        tick = setInterval(() => {
          n -= 1;
          if (n > 0) return setLeft(n);
          clearInterval(tick);
          setLeft(null);
          timeout.current();
        }, 1000);
      }, IDLE_MS);
    };
    const touched = () => {
      clearTimeout(idleTimer);
      clearInterval(tick);
      setLeft(null);
      wait();
    };
    wait();
    const events = ['pointerdown', 'keydown'] as const;
    for (const e of events) window.addEventListener(e, touched, { capture: true });
    return () => {
      clearTimeout(idleTimer);
      clearInterval(tick);
      setLeft(null);
      for (const e of events) window.removeEventListener(e, touched, { capture: true });
    };
  }, [active, timeout]);
  return active ? left : null;
}

/** Online as the browser and the server see it: offline until a request gets through again. */
function useOnline(): boolean {
  // Online at first, as in the page the app server paints (the kiosk's offline copy of the
  // page is one of those); the browser's own word follows at once.
  const [online, setOnline] = useState(true);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const probe = async () => {
      clearTimeout(timer);
      try {
        await currentSale();
        if (!stopped) setOnline(true);
      } catch (err) {
        if (stopped) return;
        if (isApiError(err) && (err.kind === 'network' || err.kind === 'timeout')) {
          setOnline(false);
          timer = setTimeout(() => void probe(), 3_000);
        }
      }
    };
    const off = () => {
      setOnline(false);
      timer = setTimeout(() => void probe(), 3_000);
    };
    const on = () => void probe();
    window.addEventListener('offline', off);
    window.addEventListener('online', on);
    if (navigator.onLine) void probe();
    else off();
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('offline', off);
      window.removeEventListener('online', on);
    };
  }, []);
  return online;
}

function enterFullscreen() {
  if (document.fullscreenElement === null && document.documentElement.requestFullscreen) {
    void document.documentElement.requestFullscreen().catch(() => undefined);
  }
}

function leaveFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
}
