import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RULES, type RuleSetting } from '#contract/api/vigilancia';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { rulesQuery, saveRules, useRules } from '../api/rules';

function RuleForm({ initial }: { initial: readonly RuleSetting[] }) {
  const qc = useQueryClient();
  const [rules, setRules] = useState(() =>
    initial.map((r) => ({ ...r, parametros: { ...r.parametros } })),
  );
  const [state, setState] = useState<
    { kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; message: string }
  >({
    kind: 'idle',
  });
  const set = (codigo: string, change: (r: RuleSetting) => RuleSetting) =>
    setRules((rs) => rs.map((r) => (r.codigo === codigo ? change(r) : r)));
  const save = async () => {
    setState({ kind: 'saving' });
    try {
      qc.setQueryData(rulesQuery().queryKey, await saveRules(rules));
      setState({ kind: 'saved' });
    } catch (e) {
      setState({ kind: 'failed', message: e instanceof Error ? e.message : 'Erro desconhecido.' });
    }
  };
  return (
    <form
      aria-label="Regras da Vigilância"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <ol className="space-y-3">
        {RULES.map((info) => {
          const r = rules.find((x) => x.codigo === info.codigo)!;
          return (
            <li key={info.codigo} className="rounded-md border border-slate-300 bg-white p-3">
              <label className="flex items-center gap-2 font-semibold">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={r.ligada}
                  onChange={(e) => set(info.codigo, (x) => ({ ...x, ligada: e.target.checked }))}
                />
                {info.numero}. {info.nome}
              </label>
              <p className="text-sm text-slate-700">{info.porque}</p>
              <div className="mt-2 flex flex-wrap gap-3">
                {info.parametros.map((p) => (
                  <label key={p.nome} className="flex flex-col text-sm">
                    {p.rotulo}
                    <input
                      type="number"
                      inputMode="numeric"
                      min={p.min}
                      max={p.max}
                      className="mt-1 w-32 rounded-md border border-slate-400 p-2"
                      value={Number(r.parametros[p.nome] ?? p.padrao)}
                      onChange={(e) =>
                        set(info.codigo, (x) => ({
                          ...x,
                          parametros: { ...x.parametros, [p.nome]: Number(e.target.value) },
                        }))
                      }
                    />
                  </label>
                ))}
              </div>
            </li>
          );
        })}
      </ol>
      <div className="flex items-center gap-3">
        <Button
          type="submit"
          size="sm"
          busy={state.kind === 'saving'}
          disabled={state.kind === 'saving'}
        >
          Salvar regras
        </Button>
        <p role="status">{state.kind === 'saved' && 'Regras salvas.'}</p>
      </div>
      {state.kind === 'failed' && (
        <Alert tone="error" title="Não foi possível salvar.">
          <p>{state.message}</p>
        </Alert>
      )}
    </form>
  );
}

/** The rules of this store: switches and thresholds a manager changes (audited). */
export function RulesPanel() {
  const q = useRules();
  if (q.isPending) return <p role="status">Carregando as regras…</p>;
  if (q.isError) {
    return (
      <Alert tone="error" title="Não foi possível carregar as regras.">
        <p>{q.error.message}</p>
      </Alert>
    );
  }
  return <RuleForm initial={q.data.regras} />;
}
