import { useState } from 'react';
import type { TerminalItem } from '#contract/api/terminais';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { isApiError } from '@/api/errors';
import { usePairDisplay } from '../api/terminais';
import { isCounter } from '../labels';

const NONE = 'nenhum';

/**
 * A counter's customer display: the kiosk every PDV sale of that counter goes straight to
 * (the customer types the phone there, no key at the counter), or none (the sales wait at the
 * counter; F7 hands one over).
 */
export function PairForm({ terminals }: { terminals: readonly TerminalItem[] }) {
  const counters = terminals.filter(isCounter);
  const kiosks = terminals.filter((t) => t.papel === 'quiosque' && t.estado === 'ativo');
  const [counter, setCounter] = useState('');
  const [kiosk, setKiosk] = useState('');
  const [error, setError] = useState<{ field: 'caixa' | 'quiosque' | 'form'; text: string }>();
  const [done, setDone] = useState<string | null>(null);
  const pair = usePairDisplay();
  if (counters.length === 0) return null;

  const submit = () => {
    setDone(null);
    if (counter === '') return setError({ field: 'caixa', text: 'Escolha o caixa.' });
    if (kiosk === '')
      return setError({ field: 'quiosque', text: 'Escolha um quiosque ou nenhum.' });
    setError(undefined);
    const quiosque = kiosk === NONE ? null : Number(kiosk);
    pair.mutate(
      { counter: Number(counter), body: { quiosque } },
      {
        onSuccess: (data) => {
          const k = kiosks.find((t) => t.id === quiosque);
          setDone(
            k
              ? `${data.terminal.nome}: cada venda do PDV vai direto ao quiosque ${k.nome}.`
              : `${data.terminal.nome}: as vendas do PDV aguardam no caixa.`,
          );
        },
        onError: (e) => {
          const fields = isApiError(e) ? e.fieldErrors : {};
          const field = fields.quiosque ? 'quiosque' : fields.caixa ? 'caixa' : 'form';
          setError({ field, text: fields[field]?.[0] ?? e.message });
        },
      },
    );
  };

  return (
    <section
      aria-labelledby="pair-title"
      className="space-y-3 rounded-md border border-slate-300 bg-white p-4"
    >
      <h2 id="pair-title" className="text-lg font-bold">
        Quiosque do caixa (tela do cliente)
      </h2>
      <p className="text-sm text-slate-700">
        Cada venda do PDV deste caixa vai direto ao quiosque escolhido: o cliente digita o celular
        lá, sem tecla no caixa. “Nenhum”: as vendas aguardam no caixa.
      </p>
      <form
        aria-label="Quiosque do caixa"
        noValidate
        className="flex flex-wrap items-start gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SelectField
          label="Caixa"
          className="w-full sm:w-64"
          value={counter}
          error={error?.field === 'caixa' ? error.text : undefined}
          onChange={(e) => {
            setCounter(e.target.value);
            const current = counters.find((t) => String(t.id) === e.target.value);
            if (current)
              setKiosk(current.quiosque_direto === null ? NONE : String(current.quiosque_direto));
          }}
        >
          <option value="">Escolha…</option>
          {counters.map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.nome} (nº {t.id})
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Quiosque"
          className="w-full sm:w-64"
          value={kiosk}
          error={error?.field === 'quiosque' ? error.text : undefined}
          onChange={(e) => setKiosk(e.target.value)}
        >
          <option value="">Escolha…</option>
          <option value={NONE}>Nenhum (vendas aguardam no caixa)</option>
          {kiosks.map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.nome} (nº {t.id})
            </option>
          ))}
        </SelectField>
        <Button type="submit" className="sm:mt-6" busy={pair.isPending} disabled={pair.isPending}>
          Salvar
        </Button>
      </form>
      {error?.field === 'form' && (
        <Alert tone="error" title="Não foi possível salvar.">
          <p>{error.text}</p>
        </Alert>
      )}
      <div role="status" className="empty:hidden">
        {done && <p>✓ {done}</p>}
      </div>
    </section>
  );
}
