import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { isApiError } from '@/api/errors';
import { ConflictData, type Customer } from '@/api/schemas';
import type { RegisterCustomerBody } from '@/api/requests';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatCpfTyping } from '@/lib/cpf';
import { parsePhoneBR } from '@/lib/phone';
import { zodResolver } from '@hookform/resolvers/zod';
import { useRegisterCustomer } from '@/features/customers/api/register-customer';
import {
  CUSTOMER_FIELD_NAMES,
  customerFieldsSchema,
  emptyCustomerValues,
  serverPathToField,
  type CustomerFieldName,
  type CustomerFormValues,
} from '@/components/customer-form/customer-schema';
import { CustomerFields } from '@/components/customer-form/customer-fields';

const resolver = zodResolver(customerFieldsSchema);

export const FIELD_LABELS: Record<CustomerFieldName, string> = {
  celular: 'Celular',
  cpf: 'CPF',
  nome: 'Nome',
  email: 'E-mail',
  data_nascimento: 'Nascimento',
  genero: 'Gênero',
  cep: 'CEP',
  endereco: 'Endereço',
  bairro: 'Bairro',
  cidade: 'Cidade',
  estado: 'UF',
};

/** What the cashier typed in the search field, shown the way the form formats it. */
function prefill(initial: { celular?: string; cpf?: string }): CustomerFormValues {
  const celular = initial.celular?.trim() ?? '';
  const phone = parsePhoneBR(celular);
  return {
    ...emptyCustomerValues,
    celular: phone.ok ? phone.national : celular,
    cpf: initial.cpf ? formatCpfTyping(initial.cpf) : '',
  };
}

type Problem =
  | { kind: 'conflict'; message: string; id_cliente: number | null }
  | { kind: 'error'; messages: string[] };

/**
 * Registers a customer (cadastrar). Prefilled with the phone or CPF typed in the search;
 * 201 → `onRegistered`; 409 → "Cliente já cadastrado" with a button to open the existing
 * customer; 422 → each message at its field. Nothing typed is cleared on an error.
 * Escape or "Cancelar" cancels.
 */
export function RegisterForm({
  initial,
  onRegistered,
  onOpenExisting,
  onCancel,
}: {
  initial: { celular?: string | undefined; cpf?: string | undefined };
  onRegistered: (customer: Customer) => void;
  onOpenExisting: (id_cliente: number) => void;
  onCancel: () => void;
}) {
  const headingId = useId();
  const form = useForm<CustomerFormValues, unknown, RegisterCustomerBody>({
    resolver,
    defaultValues: prefill(initial),
    shouldFocusError: true,
  });
  const register = useRegisterCustomer();
  const [problem, setProblem] = useState<Problem | null>(null);
  const inFlight = useRef(false);
  const { errors, submitCount } = form.formState;

  const formRef = useRef<HTMLFormElement>(null);
  // The first field takes the focus when the form opens.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);

  const onValid = async (body: RegisterCustomerBody) => {
    // One request per confirmation, whatever the double clicks or held Enter. After a success
    // the form is done: a second submit already queued behind the first (a double click
    // validated twice, with an answer faster than the re-render disabling the button) must not
    // register the customer again, so the guard is lifted only when the request failed.
    if (inFlight.current) return;
    inFlight.current = true;
    setProblem(null);
    try {
      const customer = await register.mutateAsync(body);
      onRegistered(customer);
    } catch (error) {
      inFlight.current = false;
      setProblem(toProblem(error, form.setError));
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  const busy = register.isPending || form.formState.isSubmitting;
  const invalidFields = CUSTOMER_FIELD_NAMES.filter((f) => errors[f]?.message);

  return (
    <form
      ref={formRef}
      aria-labelledby={headingId}
      noValidate
      onKeyDown={onKeyDown}
      onSubmit={(e) => void form.handleSubmit(onValid)(e)}
      className="flex flex-col gap-3"
    >
      <h2 id={headingId} className="text-lg font-bold text-slate-900">
        Cadastrar cliente
      </h2>

      {problem?.kind === 'conflict' && (
        <Alert tone="warning" title="Cliente já cadastrado">
          <p>{problem.message}</p>
          {problem.id_cliente !== null && (
            <div>
              <Button
                // Mounted by the 409: Enter opens the existing customer at once.
                autoFocus
                variant="primary"
                onClick={() => onOpenExisting(problem.id_cliente as number)}
              >
                Abrir cadastro existente
              </Button>
            </div>
          )}
        </Alert>
      )}
      {problem?.kind === 'error' && (
        <Alert tone="error" title="Não foi possível cadastrar.">
          {problem.messages.map((m, i) => (
            <p key={i}>{m}</p>
          ))}
        </Alert>
      )}
      {submitCount > 0 && invalidFields.length > 0 && (
        <p role="alert" className="text-sm font-semibold text-red-800">
          <span aria-hidden="true">⚠ </span>
          {invalidFields.length === 1 ? 'Confira o campo: ' : 'Confira os campos: '}
          {invalidFields.map((f) => FIELD_LABELS[f]).join(', ')}.
        </p>
      )}

      <CustomerFields form={form} />

      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          variant="success"
          size="lg"
          busy={busy}
          disabled={busy}
          shortcut="Enter"
        >
          {busy ? 'Cadastrando…' : 'Cadastrar'}
        </Button>
        <Button type="button" variant="secondary" size="lg" onClick={onCancel} shortcut="Esc">
          Cancelar
        </Button>
      </div>
    </form>
  );
}

type SetError = ReturnType<
  typeof useForm<CustomerFormValues, unknown, RegisterCustomerBody>
>['setError'];

/** An error from cadastrar → what the form shows; field errors go onto their fields. */
function toProblem(error: unknown, setError: SetError): Problem | null {
  if (!isApiError(error)) {
    return { kind: 'error', messages: ['Erro inesperado ao cadastrar. Tente novamente.'] };
  }
  if (error.kind === 'conflict') {
    const data = ConflictData.safeParse(error.data);
    return {
      kind: 'conflict',
      message: error.message,
      id_cliente: data.success ? data.data.id_cliente : null,
    };
  }
  const onFields = new Map<CustomerFieldName, string[]>();
  const unplaced: string[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const field = serverPathToField(path);
    if (field) onFields.set(field, [...(onFields.get(field) ?? []), ...messages]);
    else unplaced.push(...messages);
  }
  // In the order the fields appear, so the focus lands on the first one on screen.
  const ordered = CUSTOMER_FIELD_NAMES.filter((f) => onFields.has(f));
  ordered.forEach((field, i) => {
    setError(
      field,
      { type: 'server', message: onFields.get(field)?.join(' ') ?? '' },
      { shouldFocus: i === 0 },
    );
  });
  if (unplaced.length > 0) return { kind: 'error', messages: unplaced };
  if (ordered.length > 0) return null;
  return { kind: 'error', messages: [error.message] };
}
