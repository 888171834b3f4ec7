/**
 * `validate(target, schema)`: a request's JSON body or query checked with the contract's
 * schema (src/api/contract/) before the handler runs, which reads the result with
 * `c.req.valid(target)`. A refusal is the service's envelope: 400 for a body that is not a
 * JSON object, 422 with every field's messages (`errors`, keyed by dotted path such as
 * `itens.0.valor`) and the first of them as `message`.
 */
import type { Context } from 'hono';
import { validator } from 'hono/validator';
import type * as z from 'zod/mini';
import { fail, messages } from './envelope';

/** The 422 of the service: field errors, the first one as the message. */
export function invalid(c: Context, errors: Record<string, string[]>, data: object = {}): Response {
  const first = Object.values(errors)[0]?.[0] ?? 'Dados inválidos.';
  return c.json({ success: false, message: first, errors, data }, 422);
}

/** Each issue's message at its dotted path, in the order found, each message once. */
function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const list = (errors[issue.path.join('.')] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
}

export function validate<Target extends 'json' | 'query', S extends z.ZodMiniType>(
  target: Target,
  schema: S,
) {
  const check = validator(target, async (value, c): Promise<z.output<S> | Response> => {
    const parsed = await schema.safeParseAsync(value);
    return parsed.success ? parsed.data : invalid(c, fieldErrors(parsed.error.issues));
  });
  if (target !== 'json') return check;
  // The body is read (and kept by Hono for the validator) first, so that one that is not a
  // JSON object is the envelope's 400 rather than Hono's exception.
  const jsonObject: typeof check = async (c, next) => {
    const body: unknown = await c.req.json().catch(() => null);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return fail(c, 400, messages.badJson);
    }
    return check(c, next);
  };
  return jsonObject;
}
