import { useState } from 'react';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '#contract/api/auditoria';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FitTable } from '@/components/ui/fit-table';
import { DateField, dateTextToWire } from '@/components/ui/date-field';
import { SelectField } from '@/components/ui/field';
import { formatInteger } from '@/lib/points';
import { fetchAuditExport, useAuditPage, type AuditFilters } from '../api/auditoria';
import { ACTION_LABELS, actionLabel, detailsText, whenText } from '../labels';

const NO_FILTERS: AuditFilters = { de: null, ate: null, acao: null, terminal: null };

type Draft = { de: string; ate: string; acao: string; terminal: string };

/** The draft's filters, or what is wrong with it (by field). */
function readDraft(d: Draft): { filters: AuditFilters } | { errors: Partial<Draft> } {
  const errors: Partial<Draft> = {};
  const de = d.de.trim() === '' ? null : dateTextToWire(d.de);
  const ate = d.ate.trim() === '' ? null : dateTextToWire(d.ate);
  if (d.de.trim() !== '' && de === null) errors.de = 'Data inválida: use dd/mm/aaaa.';
  if (d.ate.trim() !== '' && ate === null) errors.ate = 'Data inválida: use dd/mm/aaaa.';
  if (de !== null && ate !== null && ate < de) {
    errors.ate = 'A data final deve ser igual ou posterior à inicial.';
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    filters: {
      de,
      ate,
      acao: d.acao === '' ? null : (d.acao as AuditAction),
      terminal: d.terminal === '' ? null : Number(d.terminal),
    },
  };
}

function Filters({
  terminals,
  onApply,
}: {
  terminals: readonly { id: number; nome: string }[];
  onApply: (f: AuditFilters) => void;
}) {
  const [draft, setDraft] = useState<Draft>({ de: '', ate: '', acao: '', terminal: '' });
  const [errors, setErrors] = useState<Partial<Draft>>({});
  const set = (k: keyof Draft) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));
  return (
    <form
      aria-label="Filtros da auditoria"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const read = readDraft(draft);
        if ('errors' in read) return setErrors(read.errors);
        setErrors({});
        onApply(read.filters);
      }}
    >
      <DateField
        label="De"
        className="w-36"
        value={draft.de}
        error={errors.de}
        onValueChange={set('de')}
      />
      <DateField
        label="Até"
        className="w-36"
        value={draft.ate}
        error={errors.ate}
        onValueChange={set('ate')}
      />
      <SelectField
        label="Ação"
        className="w-60"
        value={draft.acao}
        onChange={(e) => set('acao')(e.target.value)}
      >
        <option value="">Todas</option>
        {AUDIT_ACTIONS.map((a) => (
          <option key={a} value={a}>
            {ACTION_LABELS[a]}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Terminal"
        className="w-48"
        value={draft.terminal}
        onChange={(e) => set('terminal')(e.target.value)}
      >
        <option value="">Todos</option>
        {terminals.map((t) => (
          <option key={t.id} value={String(t.id)}>
            {t.nome} (nº {t.id})
          </option>
        ))}
      </SelectField>
      <Button type="submit" size="sm">
        Filtrar
      </Button>
    </form>
  );
}

function Entries({ items }: { items: readonly AuditEntry[] }) {
  return (
    <FitTable
      label="Registros de auditoria"
      cards="text"
      rowHeader={2}
      columns={[
        { header: 'Quando', cell: 'whitespace-nowrap tabular-nums' },
        { header: 'Terminal' },
        { header: 'Ação', cell: 'font-semibold' },
        { header: 'Detalhes', cell: 'min-w-48' },
        { header: 'Requisição', cell: 'font-mono text-xs break-all text-slate-700' },
      ]}
      rows={items.map((e) => ({
        key: String(e.id),
        cells: [
          whenText(e.quando),
          <>
            {e.terminal ? (e.terminal.nome ?? `nº ${e.terminal.id}`) : 'Linha de comando'}
            {e.papel && e.terminal && <span className="block text-slate-700">{e.papel}</span>}
          </>,
          actionLabel(e.acao),
          detailsText(e),
          e.requisicao ?? '—',
        ],
      }))}
    />
  );
}

type ExportState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; filename: string; rows: number }
  | { kind: 'failed'; message: string };

function useAuditExport(filters: AuditFilters) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const run = async () => {
    setState({ kind: 'running' });
    try {
      const [found, { downloadAuditCsv }] = await Promise.all([
        fetchAuditExport(filters),
        import('../audit-csv'),
      ]);
      const filename = downloadAuditCsv(found.itens);
      setState({ kind: 'done', filename, rows: found.itens.length });
    } catch (e) {
      setState({ kind: 'failed', message: e instanceof Error ? e.message : 'Erro desconhecido.' });
    }
  };
  return { state, start: () => void run() };
}

/** "Auditoria": who did what from which terminal, filtered, a page at a time, and its CSV. */
export function AuditScreen() {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [pagina, setPagina] = useState(1);
  const page = useAuditPage(filters, pagina);
  const exporter = useAuditExport(filters);
  const data = page.data;
  const running = exporter.state.kind === 'running';
  return (
    <main className="mx-auto w-full max-w-6xl space-y-4 p-4">
      <h1 className="text-2xl font-bold">Auditoria</h1>
      <p className="text-slate-700">
        Quem registrou ou revogou terminais, decidiu vendas guardadas, cancelou vendas do quiosque,
        saiu do modo quiosque, teve a senha bloqueada, entregou prêmios e exportou dados.
      </p>
      <Filters
        terminals={data?.terminais ?? []}
        onApply={(f) => {
          setFilters(f);
          setPagina(1);
        }}
      />
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-slate-700" aria-live="polite">
          {data
            ? `${formatInteger(data.total)} ${data.total === 1 ? 'registro' : 'registros'}`
            : ''}
          {page.isFetching && !page.isPending && ' · atualizando…'}
        </p>
        <Button
          variant="secondary"
          size="sm"
          className="ml-auto"
          onClick={exporter.start}
          disabled={!data || data.total === 0 || running}
          busy={running}
        >
          {!running && <span aria-hidden="true">⬇</span>} Exportar CSV
        </Button>
      </div>
      <div role="status" className="empty:hidden">
        {exporter.state.kind === 'done' && (
          <p>
            <span aria-hidden="true">✓ </span>
            Arquivo {exporter.state.filename} gerado com {formatInteger(exporter.state.rows)}{' '}
            {exporter.state.rows === 1 ? 'registro' : 'registros'}.
          </p>
        )}
      </div>
      {exporter.state.kind === 'failed' && (
        <Alert tone="error" title="Não foi possível exportar.">
          <p>{exporter.state.message}</p>
        </Alert>
      )}
      {page.isPending ? (
        <p role="status">Carregando a auditoria…</p>
      ) : page.isError ? (
        <Alert tone="error" title="Não foi possível carregar a auditoria.">
          <p>{page.error.message}</p>
          <div>
            <Button onClick={() => void page.refetch()}>Tentar novamente</Button>
          </div>
        </Alert>
      ) : page.data.itens.length === 0 ? (
        <p className="rounded-md border border-slate-300 bg-white p-4 text-slate-800">
          Nenhum registro com estes filtros.
        </p>
      ) : (
        <>
          <Entries items={page.data.itens} />
          <nav aria-label="Páginas da auditoria" className="flex items-center gap-3">
            <Button
              size="sm"
              variant="secondary"
              disabled={pagina <= 1}
              onClick={() => setPagina((p) => p - 1)}
            >
              Anterior
            </Button>
            <span className="tabular-nums">
              Página {page.data.pagina} de {page.data.paginas}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={pagina >= page.data.paginas}
              onClick={() => setPagina((p) => p + 1)}
            >
              Próxima
            </Button>
          </nav>
        </>
      )}
    </main>
  );
}
