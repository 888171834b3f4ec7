import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RULES, type RuleSetting } from '#contract/api/vigilancia';
import { Alert } from '@/components/ui/alert';
import { Loaded } from '@/components/ui/list-states';
import { Button } from '@/components/ui/button';
import { rulesQuery, saveRules, useRules } from '../api/rules';

/** Rule 6's opening hours, `HH:MM` on the wire (a closing before the opening spans midnight). */
const HOURS = [
  { nome: 'abre', rotulo: 'Abre às' },
  { nome: 'fecha', rotulo: 'Fecha às (antes da abertura: depois da meia-noite)' },
] as const;

function RuleForm({ initial, readOnly }: { initial: readonly RuleSetting[]; readOnly: boolean }) {
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
      <fieldset disabled={readOnly} className="contents">
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
                  {info.codigo === 'fora_do_horario'
                    ? HOURS.map((h) => (
                        <label key={h.nome} className="flex flex-col text-sm">
                          {h.rotulo}
                          <input
                            type="time"
                            required
                            className="mt-1 w-32 rounded-md border border-slate-400 p-2"
                            value={String(r.parametros[h.nome] ?? '')}
                            onChange={(e) =>
                              set(info.codigo, (x) => ({
                                ...x,
                                parametros: { ...x.parametros, [h.nome]: e.target.value },
                              }))
                            }
                          />
                        </label>
                      ))
                    : info.parametros.map((p) => (
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
      </fieldset>
      {readOnly ? (
        <p className="text-slate-700">Só o gerente da loja muda as regras e os limites.</p>
      ) : (
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
      )}
      {state.kind === 'failed' && (
        <Alert tone="error" title="Não foi possível salvar.">
          <p>{state.message}</p>
        </Alert>
      )}
    </form>
  );
}

/**
 * The rules of this store: switches and thresholds its manager changes (audited); `loja`: the
 * chain's store a rede reads them of (read only).
 */
export function RulesPanel({
  loja = null,
  readOnly = false,
}: {
  loja?: number | null;
  readOnly?: boolean;
}) {
  const q = useRules(loja);
  return (
    <Loaded query={q} loading="Carregando as regras…" failed="Não foi possível carregar as regras.">
      {(data) => <RuleForm initial={data.regras} readOnly={readOnly} />}
    </Loaded>
  );
}
