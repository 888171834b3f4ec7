import { useState } from 'react';
import type { TerminalItem } from '#contract/api/terminais';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ChoiceField } from '@/components/ui/choice-field';
import { FormCard } from './form-card';
import { isApiError } from '@/api/errors';
import { usePairDisplay } from '../api/terminais';
import { isCounter, numbered } from '../labels';

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
  // What the two selects share: the width, the first choice and the error of their field.
  const pick = (field: 'caixa' | 'quiosque') => ({
    className: 'w-full sm:w-64',
    first: 'Escolha…',
    error: error?.field === field ? error.text : undefined,
  });

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
    <FormCard
      title="Quiosque do caixa (tela do cliente)"
      formLabel="Quiosque do caixa"
      intro="Cada venda do PDV deste caixa vai direto ao quiosque escolhido: o cliente digita o celular lá, sem tecla no caixa. “Nenhum”: as vendas aguardam no caixa."
      onSubmit={submit}
      after={
        <>
          {error?.field === 'form' && (
            <Alert tone="error" title="Não foi possível salvar.">
              <p>{error.text}</p>
            </Alert>
          )}
          <div role="status" className="empty:hidden">
            {done && <p>✓ {done}</p>}
          </div>
        </>
      }
    >
      <ChoiceField
        {...pick('caixa')}
        label="Caixa"
        value={counter}
        choices={counters.map(numbered)}
        onValue={(v) => {
          setCounter(v);
          const current = counters.find((t) => String(t.id) === v);
          if (current)
            setKiosk(current.quiosque_direto === null ? NONE : String(current.quiosque_direto));
        }}
      />
      <ChoiceField
        {...pick('quiosque')}
        label="Quiosque"
        value={kiosk}
        choices={[
          { value: NONE, text: 'Nenhum (vendas aguardam no caixa)' },
          ...kiosks.map(numbered),
        ]}
        onValue={setKiosk}
      />
      <Button type="submit" className="sm:mt-6" busy={pair.isPending} disabled={pair.isPending}>
        Salvar
      </Button>
    </FormCard>
  );
}
