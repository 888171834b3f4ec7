import { useState } from 'react';
import {
  CreateTerminalRequest,
  TERMINAL_NAME_MAX,
  type CreatableRole,
  type CreatedTerminal,
} from '#contract/api/terminais';
import { isApiError } from '@/api/errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ChoiceField, choicesOf } from '@/components/ui/choice-field';
import { CharCount, TextField } from '@/components/ui/field';
import { useCreateTerminal } from '../api/terminais';
import { ROLE_HINTS, ROLE_LABELS, timeText } from '../labels';
import { FormCard } from './form-card';

type Errors = { nome?: string; papel?: string; form?: string };

/**
 * A new terminal of the store and its one-time code. Each attempt keeps one Idempotency-Key
 * until it succeeds, so sending again after a lost answer gives the same code.
 */
export function NewTerminalForm({
  loja,
  lojaNome,
  roles,
}: {
  loja: number;
  lojaNome: string;
  roles: readonly CreatableRole[];
}) {
  const [nome, setNome] = useState('');
  const [papel, setPapel] = useState<CreatableRole | ''>('');
  const [errors, setErrors] = useState<Errors>({});
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [created, setCreated] = useState<CreatedTerminal | null>(null);
  const create = useCreateTerminal();

  const submit = () => {
    const parsed = CreateTerminalRequest.safeParse({ nome, papel, loja });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'papel' ? 'papel' : 'nome';
        found[field] ??= issue.message;
      }
      return setErrors(found);
    }
    setErrors({});
    create.mutate(
      { body: { nome: parsed.data.nome, papel: parsed.data.papel, loja }, key },
      {
        onSuccess: (data) => {
          setCreated(data);
          setNome('');
          setPapel('');
          setKey(crypto.randomUUID());
        },
        onError: (e) => {
          const fields = isApiError(e) ? e.fieldErrors : {};
          setErrors({
            nome: fields.nome?.[0],
            papel: fields.papel?.[0],
            form: fields.nome || fields.papel ? undefined : e.message,
          });
        },
      },
    );
  };

  return (
    <FormCard
      title="Novo terminal"
      intro="Crie o terminal e digite o código no navegador dele, na tela “Este terminal não está registrado”. O código vale 15 minutos, uma única vez."
      onSubmit={submit}
      after={
        <>
          {errors.form && (
            <Alert tone="error" title="Não foi possível criar o terminal.">
              <p>{errors.form}</p>
            </Alert>
          )}
          {created && <Created created={created} lojaNome={lojaNome} />}
        </>
      }
    >
      <TextField
        label="Nome do terminal"
        className="w-full sm:w-64"
        value={nome}
        maxLength={TERMINAL_NAME_MAX + 10}
        error={errors.nome}
        aside={<CharCount value={nome} max={TERMINAL_NAME_MAX} />}
        placeholder="Caixa 2"
        onChange={(e) => setNome(e.target.value)}
      />
      <ChoiceField
        label="Papel"
        className="w-full sm:w-80"
        value={papel}
        error={errors.papel}
        first="Escolha…"
        choices={choicesOf(roles, ROLE_HINTS)}
        onValue={(v) => setPapel(v as CreatableRole | '')}
      />
      <Button type="submit" className="sm:mt-6" busy={create.isPending} disabled={create.isPending}>
        Criar código
      </Button>
    </FormCard>
  );
}

/** The terminal just created and its one-time code. */
function Created({ created, lojaNome }: { created: CreatedTerminal; lojaNome: string }) {
  return (
    <Alert tone="success" title={`Terminal ${created.terminal.nome} criado na ${lojaNome}`}>
      <p>
        {ROLE_LABELS[created.terminal.papel]} nº {created.terminal.id}. Código de registro:
      </p>
      <p
        className="font-mono text-3xl font-bold tracking-widest select-all"
        data-testid="enrollment-code"
      >
        {created.codigo}
      </p>
      <p>Válido até {timeText(created.expira_em)}, uma única vez.</p>
    </Alert>
  );
}
