import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@/api/errors';
import { configKeys } from '@/api/keys';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { enrollTerminal } from './api';

/**
 * A browser that is not an enrolled terminal: the code a manager created with
 * `npm run terminal -- add` enrolls it; the config is then read again (role, navigation).
 */
export function EnrollScreen({ revoked = false }: { revoked?: boolean }) {
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  // Not `autoFocus`: React does not apply it to a field it adopts from the server's page.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const enroll = useMutation({
    mutationFn: enrollTerminal,
    onSuccess: () => client.invalidateQueries({ queryKey: configKeys.all }),
  });
  const problem = enroll.error;
  const problemAtField = isApiError(problem) ? problem.fieldError('codigo') : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') {
      setFieldError('Digite o código de registro.');
      return;
    }
    setFieldError(undefined);
    enroll.mutate(code.trim());
  }

  return (
    <main className="mx-auto flex w-full max-w-lg flex-col gap-5 p-8">
      <h1 className="text-2xl font-bold">Este terminal não está registrado</h1>
      {revoked && (
        <Alert tone="warning" title="O registro deste terminal foi revogado.">
          <p>Para voltar a usá-lo, registre-o de novo com um código novo.</p>
        </Alert>
      )}
      <p className="text-slate-800">
        Peça ao gerente um código de registro. Ele o cria no servidor com{' '}
        <code className="rounded bg-slate-100 px-1">npm run terminal -- add</code>; o código vale 15
        minutos e uma única vez.
      </p>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Código de registro"
          name="codigo"
          ref={field}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="ABCD-EFGH"
          inputClassName="font-mono text-lg tracking-widest uppercase"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={fieldError ?? problemAtField}
        />
        {problem && !problemAtField && (
          <Alert tone="error" title="Não foi possível registrar o terminal.">
            <p>{problem.message}</p>
          </Alert>
        )}
        <div>
          <Button type="submit" busy={enroll.isPending} disabled={enroll.isPending}>
            Registrar terminal
          </Button>
        </div>
      </form>
    </main>
  );
}
