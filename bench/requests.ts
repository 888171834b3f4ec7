// The requests the benchmark sends: establishment 1 of the sandbox's demo data
// (/work/shared/spec/decisions.md, server/sandbox/README.md).

export const EST = 1;
export const APP_TOKEN = 'demo-app-token';
export const ACCESS_TOKEN = 'demo-access-token-1';
export const ATTENDANT_PASSWORD = '1234';
/** Maria da Silva, seeded in every new database. */
export const LOOKUP_PHONE = '+5511987654321';
/** Carlos Souza, seeded too: the existing customer posted to again and again. */
export const EXISTING_PHONE = '+5531991234567';

export const LOOKUP_PATH = `/api/v4/estabelecimentos/${EST}/clientes/buscar`;
export const POSTING_PATH = `/api/v4/estabelecimentos/${EST}/fidelidade/pontuar`;

export const LOOKUP_BODY = JSON.stringify({ celular: LOOKUP_PHONE });

/** What the browser sends: the app server adds the tokens itself. */
export const BROWSER_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json',
};

/** What a direct client of the loyalty service (or the app server) sends. */
export const SERVICE_HEADERS: Readonly<Record<string, string>> = {
  ...BROWSER_HEADERS,
  'app-token': APP_TOKEN,
  'access-token': ACCESS_TOKEN,
};

/** A mobile number that no seeded customer has: +55 61 9xxxx-xxxx, unique per `n` < 10^8. */
export function freshPhone(n: number): string {
  return `+55619${String(n % 100_000_000).padStart(8, '0')}`;
}

export function postingBody(phone: string, valorGasto: number): string {
  return JSON.stringify({
    valor_gasto: valorGasto,
    senha_atendente: ATTENDANT_PASSWORD,
    cliente: { celular: phone },
  });
}

/** Reads the whole answer and checks it is a 200 `success: true` envelope. */
export async function expectSuccess(res: Response, what: string): Promise<void> {
  const text = await res.text();
  let ok = false;
  if (res.status === 200) {
    try {
      ok = (JSON.parse(text) as { success?: unknown }).success === true;
    } catch {
      ok = false;
    }
  }
  if (!ok) throw new Error(`${what}: HTTP ${res.status} ${text.slice(0, 200)}`);
}
