import { useCallback, useEffect, useReducer, useRef, useState, type RefCallback } from 'react';
import type * as z from 'zod/mini';
import { useForm, useFormState, type UseFormReturn } from 'react-hook-form';
import type { Customer } from '@/api/schemas';
import { isPasswordLock, isPostingsInFlight, type ApiError } from '@/api/errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { MoneyInput } from '@/components/ui/money-input';
import { afterPaint } from '@/hooks/use-after-paint';
import { centsFromDigits, formatBRL } from '@/lib/money';
import { zodResolver } from '@hookform/resolvers/zod';
import { CustomerFields } from '@/components/customer-form/customer-fields';
import {
  customerFieldsSchema,
  emptyCustomerValues,
  serverPathToField,
  toRegisterBody,
  type CustomerFormValues,
} from '@/components/customer-form/customer-schema';

type CustomerOutput = z.output<typeof customerFieldsSchema>;
import { Basket } from '@/features/points/components/basket';
import {
  blockReason,
  emptySale,
  saleFieldFor,
  saleSchema,
  toPointsBody,
  type SaleValues,
} from '@/features/points/sale-schema';
import { snapshotOf } from '@/features/points/posting-flow';
import type { usePosting } from '@/features/points/use-posting';

type Props = {
  /** The found customer, or null to register-and-post for a customer not yet registered. */
  customer: Customer | null;
  /** Prefill of the registration fields for a new customer (what was typed in the search). */
  newCustomer?: { celular?: string; cpf?: string };
  /**
   * The service cannot be reached (contingency): the sale goes by the phone searched alone,
   * kept by the app server and posted when the service returns (no registration form).
   */
  unavailable?: boolean;
  password: string | null;
  posting: ReturnType<typeof usePosting>;
  amountRef?: RefCallback<HTMLInputElement>;
};

function firstError(
  errors: Partial<Record<keyof CustomerFormValues, unknown>>,
): keyof CustomerFormValues {
  return (Object.keys(errors)[0] as keyof CustomerFormValues | undefined) ?? 'celular';
}

/** Messages for the error kinds a posting can end in when the service answered. */
function postingErrorTitle(error: ApiError): string {
  switch (error.kind) {
    case 'validation':
      return 'O serviço recusou o lançamento. Corrija o que está indicado e lance de novo.';
    case 'unauthorized':
    case 'forbidden':
      return 'Este caixa não está autorizado a lançar pontos.';
    case 'rate_limited':
      if (isPasswordLock(error.data)) return 'Lançamentos bloqueados neste terminal.';
      return isPostingsInFlight(error.data)
        ? 'Lançamentos em andamento neste caixa.'
        : 'Muitos lançamentos seguidos.';
    case 'not_found':
      return 'O serviço não encontrou o estabelecimento ou o cliente.';
    case 'conflict':
      return 'O serviço recusou o lançamento por conflito de dados.';
    default:
      return 'Não foi possível lançar os pontos.';
  }
}

export function SalePanel({
  customer,
  newCustomer,
  unavailable = false,
  password,
  posting,
  amountRef,
}: Props) {
  const sale = useForm<SaleValues>({ defaultValues: emptySale, resolver: zodResolver(saleSchema) });
  const customerForm = useForm<CustomerFormValues, unknown, CustomerOutput>({
    defaultValues: {
      ...emptyCustomerValues,
      celular: newCustomer?.celular ?? '',
      cpf: newCustomer?.cpf ?? '',
    },
    resolver: zodResolver(customerFieldsSchema),
  });
  const { phase } = posting;
  const sending = phase.name === 'sending';
  // A new customer found by phone needs nothing more: the other fields start folded away.
  const [showCustomerFields, setShowCustomerFields] = useState(!newCustomer?.celular);

  const applyFieldErrors = (error: ApiError) => {
    let first: string | null = null;
    for (const [path, messages] of Object.entries(error.fieldErrors)) {
      const message = messages[0];
      if (!message || path === 'senha_atendente') continue;
      const saleField = saleFieldFor(path);
      if (saleField) {
        sale.setError(saleField as 'valor', { type: 'server', message });
        first ??= saleField;
        continue;
      }
      if (path.startsWith('cliente.') && !customer && !unavailable) {
        const field = serverPathToField(path);
        if (field)
          customerForm.setError(
            field,
            { type: 'server', message },
            { shouldFocus: first === null },
          );
      }
    }
    if (first && first !== 'itens.root') sale.setFocus(first as 'valor');
  };

  const submit = sale.handleSubmit(async (values) => {
    if (posting.locked || !password || blockReason(values.valor, values.itens)) return;
    let cliente;
    if (customer) {
      cliente = { celular: customer.celular };
    } else if (unavailable) {
      // Only the phone: whatever else was known cannot be checked against the service now.
      cliente = { celular: toRegisterBody({ celular: newCustomer?.celular ?? '' }).celular };
    } else {
      const ok = await customerForm.trigger();
      if (!ok) {
        setShowCustomerFields(true);
        setTimeout(() => customerForm.setFocus(firstError(customerForm.formState.errors)), 0);
        return;
      }
      cliente = toRegisterBody(customerForm.getValues());
    }
    const error = await posting.post(toPointsBody(values, cliente, password), snapshotOf(customer));
    if (error) applyFieldErrors(error);
  });

  const failed = phase.name === 'failed' ? phase.error : null;
  const unclaimed = failed
    ? Object.keys(failed.fieldErrors).filter(
        (p) =>
          p !== 'senha_atendente' &&
          !saleFieldFor(p) &&
          !(p.startsWith('cliente.') && !customer && !unavailable),
      )
    : [];

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sale-title" className="flex flex-col gap-4">
      <h2 id="sale-title" className="text-lg font-bold">
        {customer || unavailable ? 'Lançar pontos' : 'Cadastrar e lançar pontos'}
      </h2>

      {failed && (
        <Alert tone="error" title={postingErrorTitle(failed)}>
          <p>{failed.message}</p>
          {unclaimed.map((p) => (
            <p key={p}>{failed.fieldErrors[p]?.[0]}</p>
          ))}
        </Alert>
      )}

      {!customer && unavailable && (
        <p className="rounded-md border border-amber-500 bg-amber-50 p-3 text-amber-950">
          Celular <strong className="tabular">{newCustomer?.celular}</strong>. Serviço indisponível:
          a venda é guardada e lançada quando o serviço voltar. Saldo indisponível agora.
        </p>
      )}

      {!customer && !unavailable && (
        <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 p-3">
          <legend className="px-1 font-semibold">Dados do novo cliente</legend>
          {showCustomerFields ? (
            <CustomerFields form={customerForm} />
          ) : (
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p>
                Celular <strong className="tabular">{newCustomer?.celular}</strong>. Os demais dados
                são opcionais.
              </p>
              <Button variant="secondary" onClick={() => setShowCustomerFields(true)}>
                Preencher nome, CPF e endereço
              </Button>
            </div>
          )}
        </fieldset>
      )}

      <AmountField form={sale} amountRef={amountRef} />

      <Basket form={sale} />

      <SubmitRow form={sale} sending={sending} locked={posting.locked} />
    </form>
  );
}

/**
 * The amount. The field keeps its own text (MoneyInput): a digit writes it there and sets the
 * form's value, and nothing renders in the key's frame. The form's value set from elsewhere (a
 * reset, the basket's total) renders the field once, to show it.
 */
function AmountField({
  form,
  amountRef,
}: {
  form: UseFormReturn<SaleValues>;
  amountRef?: RefCallback<HTMLInputElement> | undefined;
}) {
  const { errors } = useFormState({ control: form.control, name: 'valor' });
  const input = useRef<HTMLInputElement | null>(null);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useEffect(
    () =>
      form.subscribe({
        name: 'valor',
        formState: { values: true },
        callback: ({ values }) => {
          const el = input.current;
          if (el && centsFromDigits(el.value) !== values.valor) redraw();
        },
      }),
    [form],
  );
  // Registered without its element: the form store holds the cents, never the field's text,
  // and focuses the field through this handle (a refused amount, an error on submit).
  const ref = useCallback(
    (el: HTMLInputElement | null) => {
      input.current = el;
      amountRef?.(el);
      form.register('valor').ref(el && { focus: () => el.focus(), select: () => el.select() });
    },
    [form, amountRef],
  );
  return (
    <MoneyInput
      ref={ref}
      name="valor"
      label="Valor da compra"
      value={form.getValues('valor')}
      onChange={(cents) => {
        form.setValue('valor', cents);
        if (form.formState.errors.valor) form.clearErrors('valor');
      }}
      error={errors.valor?.message}
      hint="Digite só os números: 1050 = R$ 10,50."
      inputClassName="font-semibold py-3"
      // text-base (1.5rem a line) + py-3 + the 1px border
      typingHeight="h-[calc(3rem+2px)]"
    />
  );
}

/**
 * The post button and why it is blocked. Whether the button posts follows the amount (and the
 * basket) at once, so Enter right after a digit posts the amount typed; it renders only when
 * that changes. The button's amount and the reason under it follow once the key's frame is
 * drawn (as the search field's hint does): the key's frame draws the amount field alone.
 */
function SubmitRow({
  form,
  sending,
  locked,
}: {
  form: UseFormReturn<SaleValues>;
  sending: boolean;
  locked: boolean;
}) {
  const now = useCallback(() => {
    const { valor, itens } = form.getValues();
    return { valor, reason: blockReason(valor, itens) };
  }, [form]);
  const [blocked, setBlocked] = useState(() => now().reason !== null);
  // Set only when it changes: a key that leaves it as it was renders nothing.
  const blockedNow = useRef(blocked);
  const [shown, setShown] = useState(now);
  useEffect(() => {
    let due = false;
    let cancel = () => {};
    const unsubscribe = form.subscribe({
      formState: { values: true },
      callback: ({ values }) => {
        const next = blockReason(values.valor, values.itens) !== null;
        if (next !== blockedNow.current) {
          blockedNow.current = next;
          setBlocked(next);
        }
        if (due) return;
        due = true;
        cancel = afterPaint(() => {
          due = false;
          setShown(now());
        });
      },
    });
    return () => {
      unsubscribe();
      cancel();
    };
  }, [form, now]);
  const { valor: shownValor, reason } = shown;
  return (
    <div className="flex flex-col gap-2">
      <Button
        type="submit"
        size="lg"
        variant="success"
        busy={sending}
        disabled={blocked || sending || locked}
        aria-describedby={reason ? 'post-block-reason' : undefined}
        shortcut="Enter"
      >
        {sending
          ? 'Lançando…'
          : shownValor > 0
            ? `Lançar ${formatBRL(shownValor)}`
            : 'Lançar pontos'}
      </Button>
      {reason && !sending && (
        <p id="post-block-reason" className="text-sm font-medium text-slate-800">
          {reason}
        </p>
      )}
    </div>
  );
}
