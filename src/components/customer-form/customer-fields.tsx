import type { ChangeEvent, InputHTMLAttributes, ReactNode } from 'react';
import {
  useController,
  useFormState,
  useWatch,
  type Control,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import { DateField, dateTextToWire, wireToDateText } from '@/components/ui/date-field';
import { CharCount, SelectField, TextField } from '@/components/ui/field';
import { formatCepTyping } from '@/lib/cep';
import { formatCpfTyping } from '@/lib/cpf';
import { formatPhoneTyping } from '@/lib/phone';
import { UFS } from '@/lib/uf';
import {
  BAIRRO_MAX,
  ENDERECO_MAX,
  SERVICE_DEFAULTS,
  type CustomerFieldName,
} from './customer-schema';

/** The fields of digits, masked as typed: how each is formatted, named and shown empty. */
const DIGIT_FIELDS = {
  cpf: { format: formatCpfTyping, label: 'CPF', placeholder: '000.000.000-00' },
  cep: { format: formatCepTyping, label: 'CEP', placeholder: '00000-000' },
} as const;

type Props<T extends FieldValues, C, O> = {
  /** The react-hook-form form that holds the fields (values shaped as `CustomerFormValues`). */
  form: UseFormReturn<T, C, O>;
};

/**
 * The customer's registration fields for a react-hook-form form: celular (required) and the
 * optional cpf, nome, e-mail, nascimento, gênero, CEP, endereço, bairro, cidade and UF.
 * Phone, CPF and CEP are formatted as typed; errors (client or server, via setError) show
 * under their field and are tied to it with aria-describedby. Laid out for a ~600px panel.
 */
export function CustomerFields<T extends FieldValues, C, O>({ form }: Props<T, C, O>) {
  // Two forms use these fields (registration, and the sale of a new customer) with different
  // output types; the fields only need the untyped view of either.
  const f = form as unknown as UseFormReturn<FieldValues>;
  const { control, register } = f;
  const { errors } = useFormState({ control });
  const errorOf = (field: CustomerFieldName): string | undefined => {
    const message = errors[field]?.message;
    return typeof message === 'string' && message !== '' ? message : undefined;
  };
  const [endereco = '', bairro = ''] = useWatch({
    control,
    name: ['endereco', 'bairro'],
  }) as [string | undefined, string | undefined];

  const text = (field: CustomerFieldName) => ({
    ...register(field),
    error: errorOf(field),
    autoComplete: 'off',
  });

  const digits = (field: keyof typeof DIGIT_FIELDS) => ({
    control,
    name: field,
    error: errorOf(field),
    inputMode: 'numeric' as const,
    ...DIGIT_FIELDS[field],
  });

  return (
    <div className="@container">
      <div className="grid grid-cols-1 gap-x-3 gap-y-2 @md:grid-cols-6">
        <FormattedField
          control={control}
          name={'celular'}
          format={formatPhoneTyping}
          error={errorOf('celular')}
          className="@md:col-span-2"
          label={
            <>
              Celular <span aria-hidden="true">*</span>
              <span className="sr-only"> (obrigatório)</span>
            </>
          }
          aria-required="true"
          type="tel"
          inputMode="tel"
          placeholder="(11) 98765-4321"
        />
        <FormattedField {...digits('cpf')} className="@md:col-span-2" />
        <BirthDateField
          control={control}
          error={errorOf('data_nascimento')}
          className="@md:col-span-2"
        />
        <TextField {...text('nome')} className="@md:col-span-4" label="Nome" />
        <SelectField {...text('genero')} className="@md:col-span-2" label="Gênero">
          <option value="">Não informado</option>
          <option value="M">Masculino</option>
          <option value="F">Feminino</option>
        </SelectField>
        <TextField
          {...text('email')}
          className="@md:col-span-4"
          label="E-mail"
          type="email"
          inputMode="email"
          placeholder="nome@dominio.com.br"
        />
        <FormattedField {...digits('cep')} className="@md:col-span-2" />
        <TextField
          {...text('endereco')}
          className="@md:col-span-6"
          label="Endereço"
          aside={<CharCount value={endereco} max={ENDERECO_MAX} />}
        />
        <TextField
          {...text('bairro')}
          className="@md:col-span-2"
          label="Bairro"
          aside={<CharCount value={bairro} max={BAIRRO_MAX} />}
        />
        <TextField {...text('cidade')} className="@md:col-span-2" label="Cidade" />
        <SelectField {...text('estado')} className="@md:col-span-2" label="UF">
          <option value="">Não informado</option>
          {UFS.map((uf) => (
            <option key={uf.sigla} value={uf.sigla}>
              {uf.sigla} — {uf.nome}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="mt-2 text-sm text-slate-700">
        <span aria-hidden="true">*</span> Só o celular é obrigatório. Em branco, o serviço preenche:
        nome <strong className="font-semibold">{SERVICE_DEFAULTS.nome}</strong>, e-mail{' '}
        <strong className="font-semibold">{SERVICE_DEFAULTS.email}</strong> e CPF com um código
        gerado.
      </p>
    </div>
  );
}

type FormattedFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'name' | 'value' | 'onChange' | 'onBlur'
> & {
  control: Control<FieldValues>;
  name: string;
  format: (typed: string) => string;
  label: ReactNode;
  error: string | undefined;
};

/**
 * A text field reformatted as the person types ("11987" → "(11) 987"). Deleting is left
 * alone, so backspacing over a mask character works.
 */
function FormattedField({ control, name, format, ...input }: FormattedFieldProps) {
  const {
    field: { ref, value, onChange: setValue, onBlur },
  } = useController({ control, name });
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const typed = e.target.value;
    const inputType = (e.nativeEvent as Partial<InputEvent>).inputType ?? '';
    setValue(inputType.startsWith('delete') ? typed : format(typed));
  };
  return (
    <TextField
      {...input}
      ref={ref}
      name={name}
      value={(value as string | undefined) ?? ''}
      onChange={onChange}
      onBlur={onBlur}
      autoComplete="off"
    />
  );
}

/**
 * The birth date typed `dd/mm/aaaa` whatever the browser's language. The form holds the wire
 * date (`YYYY-MM-DD`) once the text is a real date, '' when empty, and otherwise the text as
 * typed, which the schema refuses at its field (nothing typed is lost).
 */
function BirthDateField({
  control,
  error,
  className,
}: {
  control: Control<FieldValues>;
  error: string | undefined;
  className: string;
}) {
  const {
    field: { ref, name, value, onChange, onBlur },
  } = useController({ control, name: 'data_nascimento' });
  return (
    <DateField
      ref={ref}
      name={name}
      label="Nascimento"
      value={wireToDateText((value as string | undefined) ?? '')}
      onValueChange={(text) => onChange(dateTextToWire(text) ?? text)}
      onBlur={onBlur}
      // The schema says what is wrong when the form is sent, as for every other field: a
      // message appearing on blur would move the buttons under a click already under way.
      checkFormat={false}
      error={error}
      className={className}
    />
  );
}
