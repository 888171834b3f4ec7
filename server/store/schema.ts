/**
 * Tables of the app server's own store (not the loyalty service's data). Times are epoch
 * milliseconds in BIGINT columns on both engines; "absent" is NULL, never 0.
 */
import type { Generated } from 'kysely';

export const ROLES = ['caixa', 'gerente', 'quiosque', 'integracao', 'rede'] as const;
export type Role = (typeof ROLES)[number];

export interface TerminalsTable {
  id: Generated<number>;
  name: string;
  role: Role;
  created_at: number;
  /** Set when a code was redeemed; the credential's random part (rotated at each enrollment). */
  enrolled_at: number | null;
  credential_nonce: string | null;
  revoked_at: number | null;
  last_seen_at: number | null;
  /** `integracao`: the counter terminal whose sales the PDV rings up (migration 0009). */
  counter_id: number | null;
  /**
   * A counter (`caixa`, `gerente`): the kiosk facing its customers that receives every PDV
   * sale by itself (migration 0011); null: the cashier passes one with F7.
   */
  pdv_kiosk_id: number | null;
  /** The store (establishment) it belongs to (migration 0015); null: the default store. */
  establishment_id: number | null;
}

/**
 * The stores a deployment serves besides its default one (LOYALTY_ESTABLISHMENT_ID), each with
 * its `access-token` sealed under APP_SECRET (domain/stores.ts): never in plaintext here.
 */
export interface StoresTable {
  establishment_id: number;
  name: string;
  token_sealed: string;
  created_at: number;
  updated_at: number;
}

export interface EnrollmentCodesTable {
  /** SHA-256 (hex) of the normalised code: the code itself is never stored. */
  code_hash: string;
  terminal_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Fixed-window counters: one row per (key, window start). */
export interface RateCountersTable {
  key: string;
  window_start: number;
  count: number;
}

/** Repeated-failure lockouts (attendant password), keyed by e.g. `senha:terminal:7`. */
export interface LockoutsTable {
  key: string;
  failures: number;
  window_start: number;
  /** How many times it locked since the last success: each lock lasts twice the previous. */
  strikes: number;
  locked_until: number | null;
}

/** The postings journal: one row per sale (Idempotency-Key). See journal.ts. */
export interface PostingJournalTable {
  key: string;
  establishment_id: number;
  terminal_id: string | null;
  request_id: string | null;
  /** SHA-256 of the canonical body without the attendant password. */
  fingerprint: string;
  /** The customer's phone (E.164), the unit of "one posting at a time". */
  customer_key: string;
  customer_name: string | null;
  amount: number;
  /**
   * enviando | lançado | recusado | verificando | desconhecido | aguardando envio |
   * precisa de atenção | descartado
   */
  state: string;
  reason: string | null;
  answer_status: number | null;
  answer_body: string | null;
  /** JSON: the customer read just before sending / when last re-checked. */
  snapshot: string | null;
  reading: string | null;
  points: number | null;
  lost_kind: string | null;
  created_at: number;
  sent_at: number | null;
  ended_at: number | null;
  updated_at: number;
  settled_at: number | null;
  owner: string | null;
  lease_until: number;
  next_check_at: number | null;
  /** A kept sale (contingency): its pontuar body without the password, JSON. */
  body: string | null;
  /** A kept sale's attendant password, sealed (see postings/sealed.ts); erased once settled. */
  secret: string | null;
  /** Deliveries of a kept sale started so far. */
  attempts: Generated<number>;
  /** 'pontos' (a posting) or 'premio' (a reward handed over). */
  kind: Generated<string>;
  /** A hand-over's reward, JSON (see RewardHandover in journal.ts). */
  reward: string | null;
}

/** At most one posting in flight per establishment + customer: the row's holder. */
export interface PostingSlotsTable {
  establishment_id: number;
  customer_key: string;
  key: string;
  taken_at: number;
}

/** Per establishment + customer: how many postings have taken its slot (see journal.ts). */
export interface PostingTurnsTable {
  establishment_id: number;
  customer_key: string;
  turn: number;
}

/**
 * Per establishment + counter terminal: its latest lookup of a customer through the proxy
 * (see readings.ts), one row per terminal.
 */
export interface CustomerLookupsTable {
  establishment_id: number;
  terminal_id: string;
  /** The customer's phone (E.164), as the journal's slot names it. */
  customer_key: string;
  /** The customer's posting turn (posting_turns) when the read was sent, its slot free. */
  turn: number;
  /** JSON: the customer as read (CustomerReading in journal.ts). */
  reading: string;
  /** When the read was sent. */
  read_at: number;
}

/**
 * Sales staged for a kiosk (see kiosk-sales.ts): the counter (or the kiosk itself) puts an
 * amount on a kiosk, the customer claims it there. Shared by every replica.
 */
export interface KioskSalesTable {
  /** Server-made UUID, also the posting's Idempotency-Key. */
  id: string;
  kiosk_id: number;
  /** The counter terminal that staged it; null when staged on the kiosk itself. */
  counter_id: number | null;
  amount: number;
  /** JSON array of { descricao?, qtde?, valor }, or null. */
  items: string | null;
  /** aguardando | lançando | lançado | recusado | desconhecido | cancelado | expirado */
  state: string;
  message: string | null;
  points: number | null;
  /** JSON: the kiosk's view of the customer once settled (first name, masked phone…). */
  customer: string | null;
  /** The attendant password, sealed (postings/sealed.ts); null once claimed or closed. */
  secret: string | null;
  created_at: number;
  expires_at: number;
  updated_at: number;
  settled_at: number | null;
}

/** The dashboard's groups of one past local day (see painel.ts). */
export interface DashboardDaysTable {
  establishment_id: number;
  offset_ms: number;
  day: number;
  /** When the groups were read (before the read began): entries updated since make it stale. */
  computed_at: number;
  /** JSON: the day's PainelGroup[]. */
  groups: string;
}

/**
 * Sales the store's PDV sent (`/api/integracao/vendas`, see pdv-sales.ts). `id` is server-made;
 * `sale_id` is the PDV's own `id_venda`, unique per integration terminal.
 */
export interface PdvSalesTable {
  id: string;
  terminal_id: number;
  counter_id: number | null;
  sale_id: string;
  /** HMAC of the canonical request (CPF and phone included, never stored in the clear). */
  fingerprint: string;
  amount: number;
  /** JSON array of { descricao?, qtde?, valor }, or null. */
  items: string | null;
  /** aguardando | no quiosque | lançando | lançada | recusada | cancelada | não identificada */
  state: string;
  /** The journal's Idempotency-Key of the posting in flight (or the kiosk's staged sale id). */
  posting_key: string | null;
  /** 1 when posted from the PDV's own CPF or phone, with no keystroke at the counter. */
  auto: Generated<number>;
  points: number | null;
  /** JSON: the customer as the kiosk sees them (first name, masked phone…). */
  customer: string | null;
  /** JSON: the rewards this sale won ({ nome, valido_ate }[]). */
  rewards: string | null;
  message: string | null;
  created_at: number;
  expires_at: number;
  updated_at: number;
  settled_at: number | null;
}

/** A conferência of one local day (see conferencia.ts). */
export interface ReconciliationRunsTable {
  id: Generated<number>;
  establishment_id: number;
  /** The local day `YYYY-MM-DD`, at `offset_min` minutes from UTC. */
  day: string;
  offset_min: number;
  /** 'noite' (the nightly run) | 'gerente' (asked for on the dashboard). */
  origin: string;
  /** 'em andamento' | 'concluída' */
  state: string;
  owner: string | null;
  lease_until: number;
  started_at: number;
  finished_at: number | null;
  /** When its result was reported (log, metrics): once. */
  reported_at: number | null;
  customers: number;
  done: Generated<number>;
  reads: Generated<number>;
  postings: number;
  confirmed: Generated<number>;
  /** Findings that need attention (informational ones apart). */
  findings: Generated<number>;
  /** JSON: findings by kind. */
  summary: string | null;
  /** A nightly run's start: 'on_time' | 'startup' | 'late'; null otherwise (migration 0012). */
  nightly_trigger: string | null;
}

/** One customer of a run: read or still to read, and what was found (JSON). */
export interface ReconciliationCustomersTable {
  run_id: number;
  customer_key: string;
  id_cliente: number | null;
  /** 'pendente' | 'lido' */
  state: string;
  confirmed: Generated<number>;
  findings: string | null;
  read_at: number | null;
}

/**
 * The audit trail (see audit.ts): append-only, the store's triggers refuse updates and every
 * delete but the retention purge's.
 */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** The terminal that acted; null for the command line (`npm run terminal`). */
  terminal_id: number | null;
  terminal_name: string | null;
  role: string | null;
  /** e.g. `terminal.registrado`, `venda.descartada`, `exportacao` (contract/api/auditoria.ts). */
  action: string;
  /** JSON object, masked before it is written: never a password, a full CPF or phone. */
  details: string;
  request_id: string | null;
  /** The store the entry belongs to (migration 0015); null: the default store. */
  establishment_id: number | null;
}

/** One row (id 1): the retention purge's cutoff, set only inside its own transaction. */
export interface AuditPurgeTable {
  id: number;
  cutoff: number | null;
}

/**
 * Vigilância (see alerts.ts): one rule's settings per store (establishment), changed by a
 * manager; absent: the rule's defaults.
 */
export interface VigilanciaRulesTable {
  establishment_id: number;
  /** The rule's code (domain/vigilancia/rules.ts). */
  rule: string;
  enabled: number;
  /** JSON: the thresholds as the manager set them. */
  params: string;
  updated_at: number;
  updated_by: string | null;
}

/** One alert: a rule over the store's own data, with its evidence (see alerts.ts). */
export interface VigilanciaAlertsTable {
  id: Generated<number>;
  establishment_id: number;
  rule: string;
  /** Same rule + same evidence = one alert: unique per establishment. */
  dedup: string;
  /** The counter terminal of the posting(s), as the journal names it. */
  terminal_id: string | null;
  /** The customer's phone (E.164), never shown whole. */
  customer_key: string | null;
  /** The local day `YYYY-MM-DD` of the evidence (the shift's day). */
  day: string;
  amount: number | null;
  /** JSON array of the journal keys the alert is about. */
  posting_keys: string;
  /** JSON: what the rule saw (the postings, the PDV sale or its absence). */
  evidence: string;
  summary: string;
  /** aberto | reconhecido | descartado */
  state: string;
  note: string | null;
  decided_by: string | null;
  decided_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A night's re-evaluation of one store's day, claimed once across replicas. */
export interface VigilanciaNightsTable {
  establishment_id: number;
  day: string;
  started_at: number;
  finished_at: number | null;
}

export interface Database {
  terminals: TerminalsTable;
  stores: StoresTable;
  enrollment_codes: EnrollmentCodesTable;
  rate_counters: RateCountersTable;
  lockouts: LockoutsTable;
  posting_journal: PostingJournalTable;
  posting_slots: PostingSlotsTable;
  posting_turns: PostingTurnsTable;
  customer_lookups: CustomerLookupsTable;
  kiosk_sales: KioskSalesTable;
  dashboard_days: DashboardDaysTable;
  pdv_sales: PdvSalesTable;
  reconciliation_runs: ReconciliationRunsTable;
  reconciliation_customers: ReconciliationCustomersTable;
  audit_log: AuditLogTable;
  audit_purge: AuditPurgeTable;
  vigilancia_rules: VigilanciaRulesTable;
  vigilancia_alerts: VigilanciaAlertsTable;
  vigilancia_nights: VigilanciaNightsTable;
}
