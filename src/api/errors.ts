// The one error type of the wire layer. Every failure of a request ends as an ApiError
// (a caller's own abort is the exception: it stays an AbortError).

export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation'
  | 'rate_limited'
  | 'server'
  | 'contract';

/** Default messages, written for a cashier. */
export const DEFAULT_MESSAGES: Record<ApiErrorKind, string> = {
  network: 'Sem conexão com o serviço de fidelidade. Verifique a rede e tente novamente.',
  timeout: 'O serviço de fidelidade demorou demais para responder.',
  unauthorized: 'O caixa não está autorizado no serviço de fidelidade. Chame o gerente.',
  forbidden: 'Este caixa não tem permissão para esta operação. Chame o gerente.',
  not_found: 'Não encontrado.',
  conflict: 'Este registro já existe.',
  validation: 'Confira os dados informados.',
  rate_limited: 'Muitas solicitações seguidas. Aguarde alguns segundos e tente novamente.',
  server: 'O serviço de fidelidade está com problemas. Tente novamente em instantes.',
  contract: 'O serviço de fidelidade respondeu de um jeito inesperado. Chame o suporte.',
};

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status?: number | null;
  message?: string;
  fieldErrors?: Record<string, string[]>;
  data?: unknown;
  requestMayHaveReached?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status, null when no response arrived (network, timeout). */
  readonly status: number | null;
  /** Field errors keyed by request path: `cliente.celular`, `itens.2.valor`, `valor_gasto`. */
  readonly fieldErrors: Record<string, string[]>;
  /** The envelope's `data` when any (409 carries `{ id_cliente }`). */
  readonly data: unknown;
  /**
   * True when the service may have received and acted on the request although we have no
   * good answer (timeout, connection lost, 502/504/5xx, a 2xx we could not read). For a
   * points posting this means "result unknown: check the balance before sending again".
   */
  readonly requestMayHaveReached: boolean;

  constructor(init: ApiErrorInit) {
    super(
      init.message ?? DEFAULT_MESSAGES[init.kind],
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.fieldErrors = init.fieldErrors ?? {};
    this.data = init.data ?? null;
    this.requestMayHaveReached =
      init.requestMayHaveReached ?? defaultMayHaveReached(init.kind, this.status);
  }

  /** First message for a request path, e.g. `fieldError('cliente.celular')`. */
  fieldError(path: string): string | undefined {
    return this.fieldErrors[path]?.[0];
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The loyalty service could not be reached: no answer (network, timeout), or our server's
 * 502/503/504 (503: the circuit is open, contingency). A sale by phone can still be kept.
 */
export function isServiceUnavailable(error: ApiError): boolean {
  return [null, 502, 503, 504].includes(error.status);
}

function defaultMayHaveReached(kind: ApiErrorKind, status: number | null): boolean {
  if (status === 408) return false; // the server says it gave up before reading the request
  if (kind === 'timeout' || kind === 'network' || kind === 'contract') return true;
  return status !== null && status >= 500;
}

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 400 || status === 413 || status === 422) return 'validation';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status === 502) return 'network';
  if (status === 504 || status === 408) return 'timeout';
  if (status >= 500) return 'server';
  if (status >= 200 && status < 300) return 'contract';
  // Other 4xx (405, 410, ...) and odd statuses: the request was not usable as sent.
  return status >= 400 && status < 500 ? 'validation' : 'server';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "msg" | ["msg", ...] | anything → list of non-empty strings. */
function toMessages(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) return value.flatMap(toMessages);
  return [];
}

/** `itens[2].valor` → `itens.2.valor`. */
export function normalizeFieldPath(path: string): string {
  return path.replace(/\[(\w+)\]/g, '.$1').replace(/^\./, '');
}

function toFieldErrors(value: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!isRecord(value)) return out;
  for (const [key, messages] of Object.entries(value)) {
    const list = toMessages(messages);
    if (list.length > 0) out[normalizeFieldPath(key)] = list;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface ErrorBody {
  message: string | undefined;
  fieldErrors: Record<string, string[]>;
  data: unknown;
}

/**
 * Reads any of the three error shapes (decisions.md "Tolerance"):
 *   { success: false, message, data, errors }             the sandbox
 *   { error: true, messages: { field: [...] } | "..." }    older live versions
 *   { message, errors: { field: [...] } }                  Laravel's default
 * `message`/`messages` may be a string or an array; anything else yields no message.
 */
export function readErrorBody(body: unknown): ErrorBody {
  if (!isRecord(body)) return { message: undefined, fieldErrors: {}, data: null };
  const fieldErrors = { ...toFieldErrors(body.messages), ...toFieldErrors(body.errors) };
  const message =
    toMessages(body.message)[0] ?? toMessages(body.messages)[0] ?? toMessages(body.error)[0];
  return { message, fieldErrors, data: body.data ?? null };
}

/** The app server's 429 for a terminal locked after wrong attendant passwords. */
export function isPasswordLock(data: unknown): data is { segundos_restantes: number } {
  return isRecord(data) && typeof data.segundos_restantes === 'number';
}

/** The app server's 429 for a terminal with too many postings in flight (`em_andamento`). */
export function isPostingsInFlight(data: unknown): data is { em_andamento: number } {
  return isRecord(data) && typeof data.em_andamento === 'number';
}

/** What the counter says when its terminal has `n` postings in flight already. */
export const postingsInFlightMessage = (n: number) =>
  `Há ${n} lançamentos deste caixa em andamento. Aguarde um deles terminar e lance de novo.`;

/** Any HTTP status + raw body text → ApiError. Never throws. */
export function toApiError(status: number, bodyText: string): ApiError {
  const kind = kindForStatus(status);
  const parsed = parseJson(bodyText);
  const { message, fieldErrors, data } = readErrorBody(parsed);
  const firstFieldMessage = Object.values(fieldErrors)[0]?.[0];
  // The server's own words where they are meant for a person: 422 (its first field error,
  // since Laravel's summary line is English), 404 and 409 (their message).
  let text = DEFAULT_MESSAGES[kind];
  if (status === 422) text = firstFieldMessage ?? message ?? text;
  else if (status === 404 || status === 409) text = message ?? text;
  else if (status === 413) text = 'A venda tem itens demais para enviar de uma vez.';
  // The app server's attendant-password lock: its message says for how long.
  else if (status === 429 && isPasswordLock(data)) text = message ?? text;
  // Too many of this terminal's postings in flight: nothing was sent, the sale may go again.
  else if (status === 429 && isPostingsInFlight(data)) {
    text = postingsInFlightMessage(data.em_andamento);
  }
  return new ApiError({
    kind,
    status,
    message: text,
    fieldErrors,
    data,
    cause: parsed === undefined && bodyText ? bodyText.slice(0, 500) : parsed,
  });
}

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}
