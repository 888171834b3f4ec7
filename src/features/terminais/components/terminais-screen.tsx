import { useState } from 'react';
import type { TerminalItem, TerminalList } from '#contract/api/terminais';
import { Button } from '@/components/ui/button';
import { FitTable } from '@/components/ui/fit-table';
import { ChoiceField } from '@/components/ui/choice-field';
import { EmptyNote, Loaded } from '@/components/ui/list-states';
import { useRevokeTerminal, useTerminais } from '../api/terminais';
import { numbered, relativeText, ROLE_LABELS, stateClass, whenText } from '../labels';
import { NewTerminalForm } from './new-terminal-form';
import { PairForm } from './pair-form';
import { RevokeDialog } from './revoke-dialog';

/** Whether the asking terminal may revoke `t` (never itself; a gerente never the rede's). */
const revocable = (t: TerminalItem, roles: TerminalList['papeis']) =>
  t.estado !== 'revogado' && !t.este && (t.papel !== 'rede' || roles.includes('rede'));

function Terminals({
  data,
  now,
  onRevoke,
}: {
  data: TerminalList;
  /** When the list was read: "last seen" is told from then. */
  now: number;
  onRevoke: (t: TerminalItem) => void;
}) {
  const byId = new Map(data.itens.map((t) => [t.id, t]));
  const storeName = (id: number) => data.lojas.find((l) => l.id === id)?.nome ?? `Loja ${id}`;
  return (
    <FitTable
      label="Terminais da loja"
      cards="text"
      columns={[
        { header: 'Terminal', cell: 'font-semibold' },
        { header: 'Papel' },
        { header: 'Loja' },
        { header: 'Visto por último', cell: 'whitespace-nowrap' },
        { header: 'Estado' },
        { header: 'Ações' },
      ]}
      rows={data.itens.map((t) => {
        const display = t.quiosque_direto === null ? null : byId.get(t.quiosque_direto);
        const counter = t.caixa === null ? null : byId.get(t.caixa);
        return {
          key: String(t.id),
          cells: [
            <>
              {t.nome} <span className="font-normal text-slate-700">nº {t.id}</span>
              {t.este && (
                <span className="block text-sm font-normal text-slate-700">este terminal</span>
              )}
            </>,
            <>
              {ROLE_LABELS[t.papel]}
              {display && (
                <span className="block text-sm text-slate-700">
                  PDV direto ao quiosque {display.nome}
                </span>
              )}
              {counter && (
                <span className="block text-sm text-slate-700">
                  vendas para o caixa {counter.nome}
                </span>
              )}
            </>,
            storeName(t.loja),
            t.visto_em === null ? (
              'nunca'
            ) : (
              <time dateTime={t.visto_em} title={whenText(t.visto_em)}>
                {relativeText(t.visto_em, now)}
              </time>
            ),
            <>
              <span className={`rounded px-2 py-0.5 text-sm font-semibold ${stateClass(t.estado)}`}>
                {t.estado}
              </span>
              {t.codigo_expira_em && (
                <span className="block text-sm text-slate-700">
                  código até {whenText(t.codigo_expira_em).slice(11)}
                </span>
              )}
            </>,
            revocable(t, data.papeis) ? (
              <Button
                size="sm"
                variant="secondary"
                aria-label={`Revogar ${t.nome}`}
                onClick={() => onRevoke(t)}
              >
                Revogar
              </Button>
            ) : (
              '—'
            ),
          ],
        };
      })}
    />
  );
}

/**
 * "Terminais": a store's terminals (the chain's rede picks the store), a new terminal's
 * one-time code, a revocation, a counter's customer display. A gerente manages its own store.
 */
export function TerminaisScreen() {
  const [loja, setLoja] = useState<number | null>(null);
  const list = useTerminais(loja);
  const revoke = useRevokeTerminal();
  const [confirming, setConfirming] = useState<TerminalItem | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const data = list.data;
  const current = data?.lojas.find((l) => l.id === data.loja);

  const close = () => {
    setConfirming(null);
    revoke.reset();
  };
  const confirm = () => {
    if (confirming === null) return;
    revoke.mutate(confirming.id, {
      onSuccess: () => {
        setRevoked(
          `Terminal ${confirming.nome} revogado: a próxima requisição dele será recusada.`,
        );
        close();
      },
    });
  };

  return (
    <main className="mx-auto w-full max-w-6xl space-y-4 p-4">
      <h1 className="text-2xl font-bold">Terminais</h1>
      <p className="text-slate-700">
        Os navegadores e quiosques registrados na loja: crie o código de um novo terminal, revogue
        um terminal perdido ou fora de uso e escolha o quiosque que mostra as vendas do PDV de um
        caixa. Cada mudança fica na auditoria.
      </p>
      {data && data.lojas.length > 1 && (
        <ChoiceField
          label="Loja"
          className="w-full sm:w-72"
          value={String(data.loja)}
          choices={data.lojas.map(numbered)}
          onValue={(v) => {
            setLoja(Number(v));
            setRevoked(null);
          }}
        />
      )}
      <div role="status" className="empty:hidden">
        {revoked && <p>✓ {revoked}</p>}
      </div>
      <Loaded
        query={list}
        loading="Carregando os terminais…"
        failed="Não foi possível carregar os terminais."
        retry
      >
        {(found) => (
          <>
            <NewTerminalForm
              key={found.loja}
              loja={found.loja}
              lojaNome={current?.nome ?? `loja ${found.loja}`}
              roles={found.papeis}
            />
            {found.itens.length === 0 ? (
              <EmptyNote>Nenhum terminal nesta loja ainda. Crie o primeiro acima.</EmptyNote>
            ) : (
              <>
                <p className="text-slate-700" aria-live="polite">
                  {found.itens.length} {found.itens.length === 1 ? 'terminal' : 'terminais'}
                  {list.isFetching && ' · atualizando…'}
                </p>
                <Terminals data={found} now={list.dataUpdatedAt} onRevoke={setConfirming} />
              </>
            )}
            <PairForm key={`pair-${found.loja}`} terminals={found.itens} />
          </>
        )}
      </Loaded>
      {confirming && (
        <RevokeDialog
          terminal={confirming}
          busy={revoke.isPending}
          error={revoke.error?.message ?? null}
          onConfirm={confirm}
          onClose={close}
        />
      )}
    </main>
  );
}
