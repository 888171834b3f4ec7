// The kiosk's screens a customer sees: welcome, phone entry, consent, balance and the result
// of a claim. Each is given its data and callbacks by KioskScreen (kiosk-screen.tsx).
import { useCallback, useState, type ReactNode } from 'react';
import type { KioskCustomer, StagedSale } from '#contract/api/kiosk';
import { formatBRL } from '@/lib/money';
import { formatTypedPhone, Keypad, KioskAlert, keyClass } from './keypad';

// Date formatting written here rather than imported from lib/: a module this chunk shared with
// the counter's chunks would make the bundler split the counter's entry (+1.3 KB on its first
// load). Money comes from lib/money, which is in the entry already.
/** "2026-12-18" or "2026-12-18 23:59:59" → "18/12/2026". */
const formatDate = (wire: string) =>
  /^\d{4}-\d{2}-\d{2}/.test(wire)
    ? `${wire.slice(8, 10)}/${wire.slice(5, 7)}/${wire.slice(0, 4)}`
    : wire;

/** "Concluir": back to the welcome screen from a customer's last screen. */
function DoneKey({ onDone }: { onDone: () => void }) {
  return (
    <button
      type="button"
      onClick={onDone}
      className={`${keyClass} bg-amber-400 px-10 text-2xl text-slate-950`}
    >
      Concluir
    </button>
  );
}

export function Centered({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-8 p-8 text-center">
      {children}
    </div>
  );
}

export function Welcome({ notice, onStart }: { notice: string | null; onStart: () => void }) {
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

export function PhoneEntry(props: {
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
        {props.error && <KioskAlert id="phone-error">{props.error}</KioskAlert>}
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

export function Consent(props: {
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
      {props.error && <KioskAlert>{props.error}</KioskAlert>}
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

export function Balance({ customer, onDone }: { customer: KioskCustomer; onDone: () => void }) {
  return (
    <Centered>
      <h1 className="text-4xl font-bold">
        {customer.primeiro_nome ? `Olá, ${customer.primeiro_nome}!` : 'Olá!'}
      </h1>
      <p className="text-xl text-slate-300">Celular {customer.celular}</p>
      <CustomerFacts customer={customer} />
      <DoneKey onDone={onDone} />
    </Centered>
  );
}

export function ClaimResult({ sale, onDone }: { sale: StagedSale; onDone: () => void }) {
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
      <DoneKey onDone={onDone} />
    </Centered>
  );
}
