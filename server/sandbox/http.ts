// The wire conventions of the sandbox: the `{ success, message, data }` envelope and reading a
// JSON object body safely.

import { isPlainObject, type FieldErrors, type JsonObject } from '#contract/rules/validation';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface Envelope {
  success: boolean;
  message: string;
  data: unknown;
  errors?: FieldErrors;
}

export function envelope(
  status: number,
  success: boolean,
  message: string,
  data: unknown = {},
  extra: { errors?: FieldErrors; headers?: Record<string, string> } = {},
): Response {
  const body: Envelope = { success, message, data };
  if (extra.errors) body.errors = extra.errors;
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extra.headers },
  });
}

export const ok = (message: string, data: unknown, status = 200): Response =>
  envelope(status, true, message, data);

export const fail = (status: number, message: string, data: unknown = {}): Response =>
  envelope(status, false, message, data);

export const invalid = (message: string, errors: FieldErrors): Response =>
  envelope(422, false, message, {}, { errors });

type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; tooLarge: true };

async function readLimited(req: Request, limit: number): Promise<BodyRead> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    await req.body?.cancel().catch(() => undefined);
    return { ok: false, tooLarge: true };
  }
  if (!req.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, bytes };
}

export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const mime = value.split(';')[0]?.trim().toLowerCase();
  return mime === 'application/json';
}

/**
 * The request's body as a JSON object, or the error response: 400 for a wrong content type,
 * an empty or non-JSON body or a body that is not an object; 413 over 1 MB.
 */
export async function readJsonObject(
  req: Request,
): Promise<{ ok: true; body: JsonObject } | { ok: false; response: Response }> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    await req.body?.cancel().catch(() => undefined);
    return {
      ok: false,
      response: fail(
        400,
        'Envie os dados em JSON, com o cabeçalho Content-Type: application/json.',
      ),
    };
  }
  const read = await readLimited(req, MAX_BODY_BYTES);
  if (!read.ok) {
    return { ok: false, response: fail(413, 'Os dados enviados passam do limite de 1 MB.') };
  }
  let parsed: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(read.bytes);
    if (text.trim() === '') {
      return { ok: false, response: fail(400, 'Nenhum dado foi enviado. Envie um objeto JSON.') };
    }
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, response: fail(400, 'Os dados enviados não são um JSON válido.') };
  }
  if (!isPlainObject(parsed)) {
    return { ok: false, response: fail(400, 'Os dados enviados devem ser um objeto JSON.') };
  }
  return { ok: true, body: parsed };
}
