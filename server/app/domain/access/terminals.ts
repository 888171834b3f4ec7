/**
 * Enrolled terminals as the app server knows them: a browser's credential to its terminal,
 * enrollment by a manager's code or (sandbox on loopback) directly, and what a terminal is
 * shown of itself.
 */
import type * as z from 'zod/mini';
import type { Terminal as TerminalAnswer } from '#contract/api/terminals';
import {
  activeTerminal,
  enrollDirectly,
  inStoreScope,
  listTerminals,
  redeemCode,
} from '../../../store';
import type { Store, Terminal } from '../../../store';
import { credentialVerifier, signCredential } from '../credential';
import { navigationFor } from '../operations';

export type { Terminal };

/** A terminal as the browser is told of it (`/api/config`, enrollment): the contract's. */
export type TerminalView = z.input<typeof TerminalAnswer>;

/** A terminal with the credential its browser keeps (the cookie's value). */
export interface Enrolled {
  terminal: Terminal;
  credential: string;
}

export interface TerminalsDeps {
  store: Store;
  /** HMAC key of the credentials (APP_SECRET). */
  secret: string;
  /**
   * A chain's store: only its terminals are recognised, listed and enrolled here (a terminal
   * naming no store is the default store's). Absent: every terminal (one store).
   */
  chain?: { establishmentId: number; defaultId: number } | null;
}

/** Longest code the store is asked about (a code is 8 characters, plus separators). */
const CODE_MAX = 32;

export function createTerminals(deps: TerminalsDeps) {
  const verify = credentialVerifier(deps.secret);
  const chain = deps.chain ?? null;
  const scope =
    chain === null
      ? null
      : {
          establishmentId: chain.establishmentId,
          orUnnamed: chain.establishmentId === chain.defaultId,
        };
  const mine = (t: Terminal) => inStoreScope(scope, t.establishmentId);
  const withCredential = (e: { terminal: Terminal; nonce: string }): Enrolled => ({
    terminal: e.terminal,
    credential: signCredential(deps.secret, e.terminal.id, e.nonce),
  });

  return {
    /** The active terminal a credential names, or null (missing, forged, revoked). */
    async identify(credential: string | undefined): Promise<Terminal | null> {
      const cred = verify(credential);
      if (cred === null) return null;
      const terminal = await activeTerminal(deps.store, cred.id, cred.nonce);
      // An integration terminal's nonce is its token's hash: never a browser's cookie.
      if (terminal === null || terminal.role === 'integracao') return null;
      // Another store's terminal is none of this store's.
      return mine(terminal) ? terminal : null;
    },
    /** Sandbox on loopback: this computer's browser is enrolled as gerente. */
    async enrollLocal(): Promise<Enrolled> {
      return withCredential(
        await enrollDirectly(deps.store, {
          name: 'Navegador local (sandbox)',
          role: 'gerente',
          establishmentId: chain?.establishmentId ?? null,
        }),
      );
    },
    /** Redeems a one-time enrollment code; null when it is not a valid code now. */
    async redeem(code: string): Promise<Enrolled | null> {
      if (code.length > CODE_MAX) return null;
      const redeemed = await redeemCode(deps.store, code, scope);
      return redeemed === null ? null : withCredential(redeemed);
    },
    /** Names of the terminals by id (the ledger shows them). */
    async names(): Promise<Map<string, string>> {
      const terminals = await listTerminals(deps.store, scope);
      return new Map(terminals.map((t) => [String(t.id), t.name]));
    },
  };
}

export type Terminals = ReturnType<typeof createTerminals>;

export function describeTerminal(terminal: Terminal): TerminalView {
  return {
    id: terminal.id,
    name: terminal.name,
    // Browsers only (identify never answers an integration terminal).
    role: terminal.role as TerminalView['role'],
    navigation: navigationFor(terminal.role),
  };
}
