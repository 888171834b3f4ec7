/**
 * The audit trail: who did what, from which terminal, in which request. Entries are written
 * once by the code path that did the action (http/ passes who asked, see http/audit.ts), never
 * changed, and deleted only by the retention purge (store/audit.ts holds the guard). What an
 * entry says is masked here before it is written: no password, secret or token (the keys are
 * dropped), and no run of 8 digits or more (a CPF, a phone) in any text: only its last 2.
 */
import type * as z from 'zod/mini';
import type {
  AuditAction,
  AuditEntry as AuditEntryWire,
  AuditExportWire,
  AuditFilters,
  AuditPageWire,
} from '#contract/api/auditoria';
import { AUDIT_EXPORT_LIMIT, AUDIT_PAGE_SIZE } from '#contract/api/auditoria';
import { insertAudit, listTerminals, purgeAudit, readAudit } from '../../store';
import type { AuditEntry, Store } from '../../store';

/** Who did it: the terminal (null for the command line) and the request (its x-request-id). */
export interface Actor {
  terminalId: number | null;
  terminalName: string | null;
  role: string | null;
  requestId: string | null;
}

export const DEFAULT_AUDIT_RETENTION_DAYS = 400;
const DAY_MS = 86_400_000;
const PURGE_EVERY_MS = 60 * 60_000;

const SECRET_KEY = /senha|password|secret|segredo|token|credential|cookie/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
/** A run of digits with the separators a CPF or a phone is written with. */
const DIGITS = /(?<![A-Za-z0-9])\+?\d[\d.\-\s()]*\d(?![A-Za-z0-9])/g;

function maskText(text: string): string {
  if (UUID.test(text) || DATE.test(text)) return text;
  return text.replace(DIGITS, (run) => {
    const digits = run.replace(/\D/g, '');
    return digits.length >= 8 ? `•••${digits.slice(-2)}` : run;
  });
}

/** `value` as it may be written in the trail (see the module's comment). */
export function maskDetails(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskText(value);
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) >= 1e9
      ? maskText(String(Math.trunc(value)))
      : value;
  }
  if (value === null || typeof value === 'boolean') return value;
  if (depth > 4) return null;
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => maskDetails(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEY.test(k) || v === undefined) continue;
      out[k] = maskDetails(v, depth + 1);
    }
    return out;
  }
  return null;
}

export interface AuditDeps {
  store: Store;
  /** AUDIT_RETENTION_DAYS (default 400). */
  retentionDays?: number;
  log?: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /**
   * The store whose trail this is: entries are written naming it and read only from it (the
   * default store's also reads the entries from before the chain, which name none). Absent:
   * a single store's trail, as before.
   */
  establishmentId?: number;
  /** The default store's establishment (LOYALTY_ESTABLISHMENT_ID). */
  defaultId?: number;
}

export function auditEntryWire(e: AuditEntry): z.input<typeof AuditEntryWire> {
  return {
    id: e.id,
    quando: new Date(e.at).toISOString(),
    terminal: e.terminalId === null ? null : { id: e.terminalId, nome: e.terminalName },
    papel: e.role ?? 'linha de comando',
    acao: e.action,
    detalhes: e.details,
    requisicao: e.requestId,
  };
}

/** The filters' period `[de, ate]` (local days) as epoch ms `[from, to)`. */
export function auditPeriod(f: Omit<AuditFilters, 'pagina'>): {
  from: number | null;
  to: number | null;
} {
  const shift = -f.fuso * 60_000;
  return {
    from: f.de === null ? null : f.de * DAY_MS + shift,
    to: f.ate === null ? null : (f.ate + 1) * DAY_MS + shift,
  };
}

export function createAuditTrail(deps: AuditDeps) {
  const { store } = deps;
  const establishmentId = deps.establishmentId ?? null;
  const scope =
    establishmentId === null
      ? undefined
      : {
          establishmentId,
          orUnnamed: deps.defaultId === undefined || deps.defaultId === establishmentId,
        };
  const ofStore = (t: { establishmentId: number | null }) =>
    scope === undefined ||
    t.establishmentId === scope.establishmentId ||
    (scope.orUnnamed && t.establishmentId === null);
  const retentionMs = (deps.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS) * DAY_MS;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number> | null = null;

  const purge = (): Promise<number> => {
    running ??= purgeAudit(store, store.now() - retentionMs)
      .then((n) => {
        if (n > 0) deps.log?.info({ purged: n }, 'audit trail purged');
        return n;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  /** Writes one entry of this store, its details masked; throws what the store throws. */
  const write = (actor: Actor, action: AuditAction, details: Record<string, unknown>) =>
    insertAudit(store, {
      at: store.now(),
      ...actor,
      establishmentId,
      action,
      details: maskDetails(details) as Record<string, unknown>,
    });

  return {
    /**
     * Writes one entry. A failure is logged and not thrown: the action it records has
     * happened already and its answer must not be lost (the request log keeps the request).
     */
    async record(actor: Actor, action: AuditAction, details: Record<string, unknown>) {
      try {
        await write(actor, action, details);
      } catch (err) {
        deps.log?.error({ action, err: String(err), requestId: actor.requestId }, 'audit failed');
      }
    },
    /** Like `record`, but throws: for an export, which goes ahead only once recorded. */
    recordOrThrow: write,
    /** A page of the trail under the filters, newest first. */
    async page(f: AuditFilters): Promise<AuditPageWire> {
      const pagina = f.pagina ?? 1;
      const [found, terminals] = await Promise.all([
        readAudit(store, {
          ...auditPeriod(f),
          action: f.acao,
          terminalId: f.terminal,
          store: scope,
          offset: (pagina - 1) * AUDIT_PAGE_SIZE,
          limit: AUDIT_PAGE_SIZE,
        }),
        listTerminals(store),
      ]);
      return {
        itens: found.entries.map((e) => auditEntryWire(e)),
        pagina,
        paginas: Math.max(1, Math.ceil(found.total / AUDIT_PAGE_SIZE)),
        total: found.total,
        por_pagina: AUDIT_PAGE_SIZE,
        terminais: terminals.filter(ofStore).map((t) => ({ id: t.id, nome: t.name })),
      };
    },
    /** Every entry under the filters (newest first), or `too-many` past the export's limit. */
    async all(
      f: Omit<AuditFilters, 'pagina'>,
    ): Promise<{ kind: 'ok'; data: AuditExportWire } | { kind: 'too-many'; total: number }> {
      const found = await readAudit(store, {
        ...auditPeriod(f),
        action: f.acao,
        terminalId: f.terminal,
        store: scope,
        offset: 0,
        limit: AUDIT_EXPORT_LIMIT + 1,
      });
      if (found.total > AUDIT_EXPORT_LIMIT) return { kind: 'too-many', total: found.total };
      return {
        kind: 'ok',
        data: { itens: found.entries.map((e) => auditEntryWire(e)), total: found.total },
      };
    },
    /** Deletes what is past the retention (one purge at a time in this process). */
    purge,
    /** Purges now and then every hour, until `stop`. */
    start() {
      if (timer !== undefined) return;
      const run = () =>
        void purge().catch((err: unknown) =>
          deps.log?.error({ err: String(err) }, 'audit purge failed'),
        );
      run();
      timer = setInterval(run, PURGE_EVERY_MS);
      timer.unref?.();
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => 0);
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
