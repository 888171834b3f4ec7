/**
 * Who may reach the service through this server: the Host and Origin checks, the terminal
 * credential (cookie), roles, per-terminal rate limits and the attendant-password lockout.
 * Every refusal is the service's envelope with a Portuguese message; none calls the upstream.
 * The decisions and the counting are in domain/access; this file composes the middleware.
 */
import type { AccessLimits, Limits } from '../domain/access/limits';
import type { AuditTrail } from '../domain/audit';
import type { Terminals } from '../domain/access/terminals';
import { hostGuard, sameOriginJson } from './access/guard';
import { limitsAccess } from './access/limits';
import { routeOperation } from './access/operation';
import { terminalAccess } from './access/terminal';

export type { AccessVars } from './access/terminal';
export { portugueseDuration } from '../domain/access/limits';

export interface AccessDeps {
  terminals: Terminals;
  limits: Limits;
  /** The origin terminals use (PUBLIC_ORIGIN), or null: loopback names only, plain http. */
  publicOrigin: string | null;
  /** Sandbox on loopback: a browser without a credential is enrolled as gerente by /api/config. */
  autoEnroll: boolean;
  /**
   * TRUSTED_PROXIES (canonical addresses): a request from one of them is from the client its
   * `X-Forwarded-For` names (the right-most address that is not a trusted proxy).
   */
  trustedProxies?: readonly string[];
  /** Where enrollments and password lockouts are recorded (none: not recorded). */
  audit?: AuditTrail | null;
}

export function createAccess(deps: AccessDeps) {
  const audit = deps.audit ?? null;
  const terminal = terminalAccess({ ...deps, trustedProxies: deps.trustedProxies ?? [], audit });
  const limited = limitsAccess(deps.limits, audit);
  return {
    hostGuard: hostGuard(deps.publicOrigin),
    sameOriginJson: sameOriginJson(deps.publicOrigin),
    ...terminal,
    ...limited,
    routeOperation,
    /** The limits in force (the kiosk's password check uses the same lockout). */
    limits: deps.limits.limits as AccessLimits,
    /** The counting behind them. */
    counters: deps.limits,
  };
}

export type Access = ReturnType<typeof createAccess>;
