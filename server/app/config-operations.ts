/**
 * The variables of server/app/config.ts besides the server's and access's: the journal's,
 * contingency's, the PDV's, the conferência's and the process's (all optional; see the
 * README), as one zod schema that names the variable in each message, never its value.
 */
import * as z from 'zod';

export interface RateLimitEnv {
  limit: number;
  windowMs: number;
}

/** "40/10": 40 requests per 10 seconds. */
export function rateLimit(text: string): RateLimitEnv | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (m === null) return null;
  const limit = Number(m[1]);
  const seconds = Number(m[2]);
  return limit >= 1 && seconds >= 1 && seconds <= 86_400 && Number.isSafeInteger(limit)
    ? { limit, windowMs: seconds * 1000 }
    : null;
}

const blank = (v: unknown): unknown => (typeof v === 'string' ? v.trim() || undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, z.optional(schema));
const ms = (name: string) =>
  optional(
    z.string().regex(/^\d+$/, `${name} must be a whole number of milliseconds`).transform(Number),
  );
const whole = (name: string, min: number) =>
  optional(
    z
      .string()
      .regex(/^\d+$/, `${name} must be a whole number of at least ${min}`)
      .transform(Number)
      .refine((n) => n >= min, `${name} must be a whole number of at least ${min}`),
  );
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The variables read here besides the server's and access's (all optional; see the README). */
export const OperationsEnv = z.object({
  JOURNAL_UPSTREAM_LIMIT_MS: ms('JOURNAL_UPSTREAM_LIMIT_MS'),
  JOURNAL_WAIT_MS: ms('JOURNAL_WAIT_MS'),
  JOURNAL_QUIET_MS: ms('JOURNAL_QUIET_MS'),
  JOURNAL_UNKNOWN_HORIZON_MS: ms('JOURNAL_UNKNOWN_HORIZON_MS'),
  JOURNAL_RECHECK_MS: ms('JOURNAL_RECHECK_MS'),
  JOURNAL_LEASE_MS: ms('JOURNAL_LEASE_MS'),
  JOURNAL_LOOKUP_REUSE_MS: ms('JOURNAL_LOOKUP_REUSE_MS'),
  JOURNAL_RETENTION_DAYS: optional(
    z.string().regex(/^\d+$/, 'JOURNAL_RETENTION_DAYS must be a whole number of days'),
  ),
  CONTINGENCY_MAX_HOURS: optional(
    z.string().regex(/^\d+(\.\d+)?$/, 'CONTINGENCY_MAX_HOURS must be a number of hours'),
  ),
  CONTINGENCY_MAX_WAITING: whole('CONTINGENCY_MAX_WAITING', 0),
  CONTINGENCY_DELIVERY_CONCURRENCY: whole('CONTINGENCY_DELIVERY_CONCURRENCY', 1),
  CONTINGENCY_FAILURES: whole('CONTINGENCY_FAILURES', 1),
  CONTINGENCY_PROBE_MS: whole('CONTINGENCY_PROBE_MS', 100),
  LOG_LEVEL: optional(
    z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }),
  ),
  METRICS_TOKEN: optional(z.string().min(16, 'METRICS_TOKEN must have at least 16 characters')),
  CONFERENCIA_LEITURAS_POR_SEGUNDO: optional(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'CONFERENCIA_LEITURAS_POR_SEGUNDO must be a positive number')
      .transform(Number)
      .refine((n) => n > 0, 'CONFERENCIA_LEITURAS_POR_SEGUNDO must be a positive number'),
  ),
  CONFERENCIA_HORA: optional(
    z
      .string()
      .regex(/^\d{1,2}$/, 'CONFERENCIA_HORA must be an hour from 0 to 23')
      .transform(Number)
      .refine((n) => n <= 23, 'CONFERENCIA_HORA must be an hour from 0 to 23'),
  ),
  SHUTDOWN_TIMEOUT_MS: whole('SHUTDOWN_TIMEOUT_MS', 0),
  AUDIT_RETENTION_DAYS: whole('AUDIT_RETENTION_DAYS', 1),
  REWARD_HANDOVER: optional(
    z.enum(['0', '1'], { error: 'REWARD_HANDOVER must be 0 (off) or 1 (on)' }),
  ),
  PDV_VENDA_EXPIRA_MIN: optional(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'PDV_VENDA_EXPIRA_MIN must be a number of minutes, such as 10')
      .transform(Number)
      .refine((n) => n > 0, 'PDV_VENDA_EXPIRA_MIN must be more than 0'),
  ),
  PDV_SENHA_ATENDENTE: optional(z.string().max(100, 'PDV_SENHA_ATENDENTE is too long')),
  RATE_LIMIT_INTEGRACAO: optional(
    z
      .string()
      .transform((t) => rateLimit(t))
      .refine((r) => r !== null, 'RATE_LIMIT_INTEGRACAO must be requests/seconds, such as 120/10'),
  ),
});
