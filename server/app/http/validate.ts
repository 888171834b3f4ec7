/**
 * `validate(target, schema)`: a request's JSON body or query checked with the contract's
 * schema (contract/api/) before the handler runs, which reads the result with
 * `c.req.valid(target)`. A refusal is the service's envelope: 422 with every field's messages
 * (`errors`, keyed by dotted path such as `itens.0.valor`) and the first of them (or the
 * given `message`) as `message`. A JSON body that is not an object is a 400, or, with
 * `nonObject: 'empty'`, a body without any of the fields (refused field by field).
 */
import type { Context } from 'hono';
import { validator } from 'hono/validator';
import type * as z from 'zod/mini';
import { fail, messages } from './envelope';

type Issue = { path: readonly PropertyKey[]; message: string };

/** The 422 of the service: field errors, the first one as the message. */
export function invalid(c: Context, errors: Record<string, string[]>, data: object = {}): Response {
  const first = Object.values(errors)[0]?.[0] ?? 'Dados inválidos.';
  return c.json({ success: false, message: first, errors, data }, 422);
}

/** Each issue's message at its dotted path, in the order found, each message once. */
function fieldErrors(issues: readonly Issue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const list = (errors[issue.path.map(String).join('.')] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ValidateOptions {
  /** The answer's message when refused (default: the first field's). */
  message?: string;
  /** A JSON body that is not an object: a 400 (default), or checked as `{}`. */
  nonObject?: 'bad-request' | 'empty';
}

export function validate<Target extends 'json' | 'query', S extends z.ZodMiniType>(
  target: Target,
  schema: S,
  options: ValidateOptions = {},
) {
  const check = validator(target, async (value, c): Promise<z.output<S> | Response> => {
    const parsed = await schema.safeParseAsync(value);
    if (parsed.success) return parsed.data;
    const errors = fieldErrors(parsed.error.issues);
    if (options.message === undefined) return invalid(c, errors);
    return c.json({ success: false, message: options.message, errors, data: {} }, 422);
  });
  if (target !== 'json') return check;
  // The body is read (and kept by Hono for the validator) first, so that one that is not a
  // JSON object is the envelope's answer rather than Hono's exception (a 500 through onError).
  const jsonObject: typeof check = async (c, next) => {
    const body: unknown = await c.req.json().catch(() => null);
    if (isObject(body)) return check(c, next);
    if (options.nonObject !== 'empty') return fail(c, 400, messages.badJson);
    const parsed = await schema.safeParseAsync({});
    if (!parsed.success) return invalid(c, fieldErrors(parsed.error.issues));
    c.req.addValidatedData('json', parsed.data as object);
    return next();
  };
  return jsonObject;
}
