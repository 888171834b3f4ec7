/**
 * Tables of the app server's own store (not the loyalty service's data). Times are epoch
 * milliseconds in BIGINT columns on both engines; "absent" is NULL, never 0.
 */
import type { Generated } from 'kysely';

export const ROLES = ['caixa', 'gerente', 'quiosque'] as const;
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

export interface Database {
  terminals: TerminalsTable;
  enrollment_codes: EnrollmentCodesTable;
  rate_counters: RateCountersTable;
  lockouts: LockoutsTable;
}
