/** What the app server is made of (createAppServer in app.ts, a chain's store in chain.ts). */
import type { Logger } from 'pino';
import type { Store } from '../store';
import type { AccessLimits } from './domain/access/limits';
import type { AuditTrail } from './domain/audit';
import type { ConferenciaService } from './domain/conferencia/service';
import type { PostingService } from './domain/journal/service';
import type { Lifecycle } from './domain/ops/lifecycle';
import type { Metrics } from './domain/ops/metrics';
import type { SweepGate } from './domain/sweep-gate';
import type { ChainNetwork } from './domain/rede';
import type { Vigilancia } from './domain/vigilancia/service';
import type { Circuit } from './upstream/circuit';
import type { Fetcher } from './upstream/client';

export interface AppServerOptions {
  mode: 'sandbox' | 'live';
  /** live: global fetch; sandbox: the in-process sandbox app (wrapped by the circuit). */
  upstream: Fetcher;
  /** e.g. https://api.example.com (live) or http://sandbox.internal (embedded). */
  upstreamBaseUrl: string;
  appToken: string;
  accessToken: string;
  establishmentId: number;
  establishmentName: string | null;
  /** The built SPA (vite build output); may be missing, then pages answer 503. */
  distDir: string;
  /** Default 10 000. */
  upstreamTimeoutMs?: number;
  /** Largest request body relayed upstream. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Largest upstream answer relayed to the browser. Default 8 MiB. */
  maxResponseBytes?: number;
  logger?: Logger;
  /** The postings journal: when given, `pontuar` goes through it (Idempotency-Key required). */
  postings?: PostingService;
  /** The app server's own store (terminals, limits). */
  store: Store;
  /** HMAC key of the terminal credentials (APP_SECRET). */
  secret: string;
  /** PUBLIC_ORIGIN, or null: loopback names only. */
  publicOrigin: string | null;
  /** Sandbox on loopback: /api/config enrolls a browser as gerente without a code. */
  autoEnroll: boolean;
  /** Rate limits and the password lockout (defaults in domain/access/limits.ts). */
  limits?: Partial<AccessLimits>;
  /** TRUSTED_PROXIES: whose `X-Forwarded-For` names the client (canonical addresses). */
  trustedProxies?: readonly string[];
  /** Whether the upstream is reachable: while open, service reads answer 503 at once. */
  circuit?: Pick<Circuit, 'isOpen'> | null;
  /** Serving or draining (SIGTERM): /readyz and the event streams follow it. */
  lifecycle?: Lifecycle;
  /** Prometheus metrics (/metrics); null or absent: none. */
  metrics?: Metrics | null;
  /** METRICS_TOKEN: a bearer token that opens /metrics beyond loopback. */
  metricsToken?: string | null;
  /**
   * The attendant password of the PDV's own postings (PDV_SENHA_ATENDENTE; the sandbox's demo
   * password). Null or absent: a PDV sale naming a known customer waits at the counter too.
   */
  pdvPassword?: string | null;
  /** PDV_VENDA_EXPIRA_MIN in ms: an unidentified PDV sale expires after it. */
  pdvExpiryMs?: number;
  /** RATE_LIMIT_INTEGRACAO: requests per integration terminal. */
  pdvRate?: { limit: number; windowMs: number };
  /** A chain's gate of the PDV sales' sweep (domain/sweep-gate.ts); absent: every tick. */
  sweepGate?: SweepGate | null;
  /** The conferência of the journal with the service (the dashboard's section); null: none. */
  conferencia?: ConferenciaService | null;
  /** The audit trail (server/main.ts starts its purge); absent: one over `store`, no purge. */
  audit?: AuditTrail;
  /**
   * One store of a chain (domain/stores.ts, app/chain.ts): its terminals, PDV sales, kiosks,
   * painel and audit trail are this store's only (`defaultId`: the default store's
   * establishment, whose are the records naming none). Absent: one store, nothing scoped.
   */
  chain?: { defaultId: number; network?: ChainNetwork | null } | null;
  /**
   * Vigilância (app/chain.ts hands each store's journal its `onSettled` and starts its night);
   * absent: one over `store` that records the PDV's cancels and answers the manager's routes.
   */
  vigilancia?: Vigilancia;
}
