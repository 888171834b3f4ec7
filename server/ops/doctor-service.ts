/**
 * The doctor's look at the loyalty service (server/ops/doctor.ts): one harmless read with the
 * tokens through the app server's own upstream client, what the answer means for a person, and
 * the service's clock against this machine's.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../app/config';
import { createUpstreamClient } from '../app/upstream/client';
import type { Fetcher } from '../app/upstream/client';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';

export interface Check {
  title: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it (for `warn` and `fail`). */
  fix?: string;
}

/** "40 ms", "1,5 s", "3 min", "2 h": a duration for a person. */
export function duration(ms: number): string {
  const s = Math.abs(ms) / 1000;
  if (s < 1) return `${Math.round(Math.abs(ms))} ms`;
  if (s < 90) return `${s.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} h`;
}

/** The service's own words from an error answer (`message`), or the start of its text. */
async function serviceMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown }).message;
  } catch {
    message = null;
  }
  const said = (typeof message === 'string' ? message : text).replace(/\s+/g, ' ').trim();
  return said === '' ? '' : ` «${said.slice(0, 200)}»`;
}

/** Why a fetch got no answer: the cause's code (ECONNREFUSED, ENOTFOUND…) or message. */
function noAnswer(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `não respondeu em ${duration(timeoutMs)}`;
  }
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown }) : null;
  const why =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string' && cause.message !== ''
        ? cause.message
        : err instanceof Error
          ? err.message
          : String(err);
  return `não respondeu (${why})`;
}

export interface Reached {
  service: Check;
  /** The service's clock minus ours at the moment it answered (ms), or why it is unknown. */
  clock: { skewMs: number } | { unknown: string };
}

const TOKENS_FIX =
  'Confira LOYALTY_APP_TOKEN e LOYALTY_ACCESS_TOKEN (sem espaços, do ambiente certo) e se o access-token é do estabelecimento LOYALTY_ESTABLISHMENT_ID.';

/** Reads one page of one reward through the service's client, as the server would. */
export async function reachService(
  config: Config & { server: { mode: 'live' } },
  o: { fetcher: Fetcher; now: () => number; timeoutMs: number },
): Promise<Reached> {
  const title = 'Serviço de fidelidade';
  const s = config.server;
  const client = createUpstreamClient({
    fetcher: o.fetcher,
    baseUrl: s.baseUrl,
    appToken: s.appToken,
    accessToken: s.accessToken,
    establishmentId: s.establishmentId,
  });
  const sent = o.now();
  let res: Response;
  try {
    res = await client.call(
      'recompensas',
      { itens_por_pagina: '1' },
      AbortSignal.timeout(o.timeoutMs),
    );
  } catch (err) {
    return {
      service: {
        title,
        status: 'fail',
        detail: `${s.baseUrl} ${noAnswer(err, o.timeoutMs)}.`,
        fix: 'Confira LOYALTY_BASE_URL, o DNS desta máquina e se o firewall ou um proxy liberam a saída HTTPS para o serviço.',
      },
      clock: { unknown: 'o serviço não respondeu' },
    };
  }
  const received = o.now();
  const date = Date.parse(res.headers.get('date') ?? '');
  const clock = Number.isNaN(date)
    ? { unknown: 'o serviço não mandou o cabeçalho Date' }
    : { skewMs: date - (sent + received) / 2 };
  const took = duration(received - sent);
  const status = res.status;
  const said = status >= 200 && status < 300 ? '' : await serviceMessage(res);
  const answer = (c: Omit<Check, 'title'>): Reached => ({ service: { title, ...c }, clock });
  if (status >= 200 && status < 300) {
    await res.body?.cancel().catch(() => undefined);
    return answer({
      status: 'ok',
      detail: `${s.baseUrl} aceitou os tokens do estabelecimento ${s.establishmentId} (uma leitura de recompensas, ${status} em ${took}).`,
    });
  }
  if (status === 401 || status === 403) {
    return answer({
      status: 'fail',
      detail: `o serviço recusou os tokens: ${status}${said}.`,
      fix: TOKENS_FIX,
    });
  }
  if (status === 404) {
    return answer({
      status: 'fail',
      detail: `o serviço respondeu 404${said} para o estabelecimento ${s.establishmentId}.`,
      fix: 'Confira LOYALTY_ESTABLISHMENT_ID e o caminho em LOYALTY_BASE_URL (só o endereço do serviço, sem /api/v4).',
    });
  }
  if (status >= 300 && status < 400) {
    return answer({
      status: 'fail',
      detail: `o serviço redireciona (${status}) para ${res.headers.get('location') ?? '?'}.`,
      fix: 'Use em LOYALTY_BASE_URL o endereço final do serviço (o servidor não segue redirecionamentos).',
    });
  }
  if (status >= 500) {
    return answer({
      status: 'warn',
      detail: `o serviço está com problemas: ${status}${said}. O servidor funciona assim mesmo e guarda as vendas até ele voltar (contingência).`,
      fix: 'Rode de novo mais tarde; se continuar, fale com o suporte do serviço.',
    });
  }
  return answer({
    status: 'fail',
    detail: `o serviço respondeu ${status}${said}.`,
    fix: TOKENS_FIX,
  });
}

/** The embedded sandbox: the same read through its in-process app, when its file exists. */
export async function reachSandbox(
  config: Config & { server: { mode: 'sandbox' } },
  root: string,
): Promise<Check> {
  const title = 'Serviço de fidelidade';
  const s = config.server;
  const file =
    s.sandboxDb === null ? path.join(root, 'data', 'sandbox.db') : path.resolve(s.sandboxDb);
  if (!existsSync(file)) {
    return {
      title,
      status: 'ok',
      detail: `sandbox embutido: ${file} será criado com os dados de demonstração quando o servidor iniciar.`,
    };
  }
  const { openSandbox } = await import('../sandbox/sandbox');
  const { embeddedSandbox } = await import('../app/embedded');
  let sandbox: ReturnType<typeof openSandbox>;
  try {
    sandbox = openSandbox({ dbPath: file });
  } catch (err) {
    return {
      title,
      status: 'fail',
      detail: `o sandbox em ${file} não abriu: ${err instanceof Error ? err.message : String(err)}`,
      fix: 'Confira SANDBOX_DB e as permissões do arquivo; apagá-lo recria os dados de demonstração.',
    };
  }
  try {
    const upstream = embeddedSandbox(sandbox, s.establishmentId);
    if (upstream === null) {
      const ids = sandbox.establishments().map((e) => e.id);
      return {
        title,
        status: 'fail',
        detail: `o sandbox não tem o estabelecimento ${s.establishmentId}.`,
        fix: `Use em LOYALTY_ESTABLISHMENT_ID um destes: ${ids.join(', ')}.`,
      };
    }
    const res = await createUpstreamClient({
      fetcher: upstream.upstream,
      baseUrl: upstream.upstreamBaseUrl,
      appToken: upstream.appToken,
      accessToken: upstream.accessToken,
      establishmentId: upstream.establishmentId,
    }).call('recompensas', { itens_por_pagina: '1' }, AbortSignal.timeout(10_000));
    const said = res.ok ? '' : await serviceMessage(res);
    return res.ok
      ? {
          title,
          status: 'ok',
          detail: `sandbox embutido (${file}), estabelecimento ${s.establishmentId} "${upstream.establishmentName}" responde.`,
        }
      : {
          title,
          status: 'fail',
          detail: `o sandbox respondeu ${res.status}${said}.`,
          fix: 'Apague o arquivo do sandbox para recriar os dados de demonstração.',
        };
  } finally {
    sandbox.close();
  }
}

export function checkClock(clock: Reached['clock'] | null, toleranceMs: number): Check {
  const title = 'Relógio';
  if (clock === null) {
    return { title, status: 'info', detail: 'sandbox embutido: usa o relógio desta máquina.' };
  }
  if ('unknown' in clock) {
    return { title, status: 'info', detail: `não comparado: ${clock.unknown}.` };
  }
  // The Date header has whole seconds: up to 1 s of the difference is its rounding.
  const skew = clock.skewMs;
  const beyond = Math.abs(skew) - 1000 > toleranceMs;
  const side = skew > 0 ? 'atrasado' : 'adiantado';
  return beyond
    ? {
        title,
        status: 'warn',
        detail: `o relógio desta máquina está ${duration(skew)} ${side} em relação ao do serviço (tolerância ${duration(toleranceMs)}): as horas das vendas e dos registros ficam erradas.`,
        fix: 'Ative a sincronização de horário (timedatectl set-ntp true, ou chrony/ntpd) e confira o fuso.',
      }
    : {
        title,
        status: 'ok',
        detail: `a diferença para o relógio do serviço é de ${duration(skew)} (tolerância ${duration(toleranceMs)}).`,
      };
}

/**
 * The embedded sandbox's upstream (the tokens of its first establishment) for `use`, when its
 * file exists (null otherwise); the sandbox is closed once `use` is done.
 */
export async function withSandboxUpstream<T>(
  s: Config['server'] & { mode: 'sandbox' },
  root: string,
  use: (
    upstream: { fetcher: Fetcher; baseUrl: string; appToken: string; timeoutMs: number } | null,
  ) => Promise<T>,
): Promise<T> {
  const file =
    s.sandboxDb === null ? path.join(root, 'data', 'sandbox.db') : path.resolve(s.sandboxDb);
  if (!existsSync(file)) return use(null);
  const { openSandbox } = await import('../sandbox/sandbox');
  const sandbox = openSandbox({ dbPath: file });
  try {
    const appToken = sandbox.establishments()[0]?.appToken ?? '';
    return await use({
      fetcher: sandbox.app,
      baseUrl: 'http://sandbox.internal',
      appToken,
      timeoutMs: 10_000,
    });
  } finally {
    sandbox.close();
  }
}
