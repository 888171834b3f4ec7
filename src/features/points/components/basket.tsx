import { Controller, useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { MoneyInput } from '@/components/ui/money-input';
import { useHotkey } from '@/hooks/use-hotkey';
import { formatBRL } from '@/lib/money';
import {
  basketTotal,
  emptyLine,
  lineTotal,
  MAX_ITEMS,
  type SaleValues,
} from '@/features/points/sale-schema';

type Props = { form: UseFormReturn<SaleValues> };

/** A line's two free texts, each up to 200 characters, side by side on a wide column. */
const LINE_TEXTS = [
  { name: 'descricao', label: 'Descrição' },
  { name: 'complemento', label: 'Complemento' },
] as const;

/**
 * The optional basket. Each line is typed as quantity × unit price and sent as its line
 * total; the running total and the difference to the amount are always visible.
 */
export function Basket({ form }: Props) {
  const { control, register, formState } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'itens' });
  // The lines' totals follow what is typed in them; the amount is followed only by the
  // summary below, so typing the amount does not re-render every line.
  const lines = useWatch({ control, name: 'itens' });
  const errors = formState.errors.itens;
  // Errors of the basket as a whole (the sum rule, or the service's `itens`).
  const basketError = errors?.root?.message ?? errors?.message;

  const canAdd = fields.length < MAX_ITEMS;
  const add = () => {
    append({ ...emptyLine }, { shouldFocus: true, focusName: `itens.${fields.length}.descricao` });
  };
  useHotkey('F4', add, canAdd);

  return (
    <section aria-labelledby="basket-title" className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 id="basket-title" className="font-bold">
          Itens da compra <span className="font-normal text-slate-700">(opcional)</span>
        </h3>
        <Button variant="secondary" onClick={add} shortcut="F4" disabled={!canAdd}>
          Adicionar item
        </Button>
      </div>
      {fields.length === 0 ? (
        <p className="text-sm text-slate-700">
          Sem itens: os pontos são calculados só pelo valor. Adicione itens para campanhas de
          produtos.
        </p>
      ) : (
        <ol className="@container flex max-h-64 flex-col gap-2 overflow-y-auto pr-1">
          {fields.map((field, i) => {
            const line = lines[i];
            const lt = line ? lineTotal(line) : null;
            const e = errors?.[i];
            return (
              <li
                key={field.id}
                aria-label={`Item ${i + 1}`}
                // Narrow sale column (1024 px screens): texts on one row, numbers on the next.
                className="grid grid-cols-[minmax(0,1fr)_8.5rem_7.5rem_auto] items-start gap-2 rounded-md border border-slate-300 bg-slate-50 p-2 @min-[40rem]:grid-cols-[minmax(0,1fr)_7rem_4rem_8.5rem_7.5rem_auto]"
              >
                {LINE_TEXTS.map(({ name, label }) => (
                  <TextField
                    key={name}
                    className="col-span-2 @min-[40rem]:col-span-1"
                    label={label}
                    maxLength={200}
                    error={e?.[name]?.message}
                    {...register(`itens.${i}.${name}`)}
                  />
                ))}
                <TextField
                  label="Qtd."
                  inputMode="numeric"
                  error={e?.qtde?.message}
                  {...register(`itens.${i}.qtde`)}
                />
                <Controller
                  control={control}
                  name={`itens.${i}.unit`}
                  render={({ field }) => (
                    <MoneyInput
                      ref={field.ref}
                      name={field.name}
                      label="Preço unit."
                      value={field.value}
                      error={e?.unit?.message}
                      onBlur={field.onBlur}
                      onChange={(cents) => {
                        field.onChange(cents);
                        if (e?.unit) form.clearErrors(`itens.${i}.unit`);
                      }}
                    />
                  )}
                />
                <div className="flex flex-col gap-1">
                  <span className="text-sm font-semibold text-slate-800">Total</span>
                  <output
                    className="tabular py-2 text-right font-semibold whitespace-nowrap"
                    aria-label={`Total do item ${i + 1}`}
                  >
                    {lt === null ? '—' : formatBRL(lt)}
                  </output>
                </div>
                <Button
                  variant="ghost"
                  className="mt-6"
                  aria-label={`Remover item ${i + 1}`}
                  onClick={() => remove(i)}
                >
                  ✕
                </Button>
              </li>
            );
          })}
        </ol>
      )}
      {fields.length > 0 && <BasketSummary form={form} />}
      {basketError && (
        <p role="alert" className="text-sm font-medium text-red-800">
          ⚠ {basketError}
        </p>
      )}
    </section>
  );
}

/** Total of the lines, the difference to the amount, and F8: the part that follows the amount. */
function BasketSummary({ form }: Props) {
  const lines = useWatch({ control: form.control, name: 'itens' });
  const valor = useWatch({ control: form.control, name: 'valor' });
  const total = basketTotal(lines);
  const diff = valor - total;
  const canUseTotal = total !== valor;
  const applyTotal = () =>
    form.setValue('valor', total, {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
  useHotkey('F8', applyTotal, canUseTotal);
  return (
    <div
      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md bg-slate-100 px-3 py-2"
      aria-live="polite"
    >
      <span>
        Total dos itens: <strong className="tabular">{formatBRL(total)}</strong>
      </span>
      <span>
        Diferença:{' '}
        <strong className={`tabular ${diff === 0 ? 'text-emerald-800' : 'text-red-800'}`}>
          {diff === 0
            ? '✓ fecha com o valor'
            : `${diff > 0 ? 'faltam' : 'sobram'} ${formatBRL(Math.abs(diff))}`}
        </strong>
      </span>
      <Button
        variant="secondary"
        className="ml-auto"
        shortcut="F8"
        disabled={!canUseTotal}
        onClick={applyTotal}
      >
        Usar total dos itens como valor
      </Button>
    </div>
  );
}
