// How the audit trail reads for a person: each action's name and a one-line summary of what
// an entry's details say (the table's and the CSV's "Detalhes").
import type { AuditAction, AuditEntry } from '#contract/api/auditoria';
import { formatBRL } from '@/lib/money';

export const ACTION_LABELS: Record<AuditAction, string> = {
  'terminal.criado': 'Terminal criado',
  'terminal.registrado': 'Terminal registrado',
  'terminal.revogado': 'Terminal revogado',
  'venda.reenviada': 'Venda guardada reenviada',
  'venda.descartada': 'Venda guardada descartada',
  'quiosque.venda_cancelada': 'Venda do quiosque cancelada',
  'quiosque.saida': 'Saída do modo quiosque',
  'senha.bloqueada': 'Senha do atendente bloqueada',
  'premio.entrega': 'Entrega de prêmio',
  exportacao: 'Exportação',
  'vigilancia.decisao': 'Alerta da Vigilância decidido',
  'vigilancia.regras': 'Regras da Vigilância alteradas',
};

const EXPORT_LABELS: Record<string, string> = {
  premios: 'Prêmios',
  lancamentos: 'Lançamentos do turno',
  auditoria: 'Auditoria',
  vigilancia: 'Vigilância',
};

export const actionLabel = (acao: string) =>
  (ACTION_LABELS as Record<string, string | undefined>)[acao] ?? acao;

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const obj = (v: unknown) =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
const money = (v: unknown) => (typeof v === 'number' ? formatBRL(v) : '');

/** `dd/mm/aaaa hh:mm` of an ISO instant, in this terminal's timezone. */
export function whenText(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function filtersText(filtros: Record<string, unknown>): string {
  const parts = Object.entries(filtros)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${k}=${str(v)}`);
  return parts.length === 0 ? 'sem filtros' : `filtros: ${parts.join(', ')}`;
}

/** One line saying what the entry's details say. */
export function detailsText(e: Pick<AuditEntry, 'acao' | 'detalhes'>): string {
  const d = e.detalhes;
  switch (e.acao) {
    case 'terminal.criado':
    case 'terminal.registrado':
    case 'terminal.revogado': {
      const t = obj(d.terminal);
      const how = d.modo === 'automático' ? ' · registro automático (sandbox)' : '';
      return `${str(t.nome)} (${str(t.papel)}), nº ${str(t.id)}${how}`;
    }
    case 'venda.reenviada':
    case 'venda.descartada':
      return `Venda ${str(d.chave).slice(0, 8)} de ${money(d.valor_gasto)}, do terminal nº ${str(d.terminal_da_venda)}`;
    case 'quiosque.venda_cancelada':
      return `Venda de ${money(d.valor_gasto)} para o quiosque nº ${str(d.quiosque)}`;
    case 'quiosque.saida':
      return `Quiosque ${str(obj(d.quiosque).nome)}`;
    case 'senha.bloqueada':
      return `Em ${str(d.operacao)}, até ${d.bloqueada_ate ? whenText(str(d.bloqueada_ate)) : '—'}`;
    case 'premio.entrega':
      return `${str(d.premio) || `Prêmio nº ${str(d.id_premio)}`} ao cliente nº ${str(d.id_cliente)} · ${str(d.estado)}`;
    case 'vigilancia.decisao':
      return `Alerta nº ${str(d.alerta)} (${str(d.regra)}) ${str(d.decisao)}: ${str(d.nota)}`;
    case 'vigilancia.regras':
      return `${Array.isArray(d.regras) ? d.regras.length : 0} regras salvas`;
    case 'exportacao': {
      const linhas = typeof d.linhas === 'number' ? d.linhas : 0;
      return `${EXPORT_LABELS[str(d.tipo)] ?? str(d.tipo)}: ${linhas} ${linhas === 1 ? 'linha' : 'linhas'} · ${filtersText(obj(d.filtros))}`;
    }
    default:
      return JSON.stringify(d);
  }
}
