/**
 * Checks a request's query or JSON body with a schema of the contract (src/api/contract/),
 * built on Hono's validator: the handler reads the parsed value with `c.req.valid(target)`,
 * and a request that does not pass is answered 422 in the service's envelope, with the
 * messages by field (`{ success: false, message, data: {}, errors: { field: [message] } }`).
 * A JSON body that is not an object (unreadable, `null`, a list) has none of the fields.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import type * as z from 'zod/mini';

type Issue = { path: readonly PropertyKey[]; message: string };

/** Messages by field (`cliente.celular`), each once, in order. */
function fieldErrors(issues: readonly Issue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    const list = (errors[field] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
}

function refused(c: Context, issues: readonly Issue[], message: string | undefined): Response {
  return c.json(
    {
      success: false,
      message: message ?? issues[0]?.message ?? 'Requisição inválida.',
      data: {},
      errors: fieldErrors(issues),
    },
    422,
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `validate('query', LedgerQuery, { message: 'Período inválido.' })`: the request's `target`
 * parsed with `schema`; `message` is the answer's message when refused (default: the first
 * field's).
 */
export function validate<T extends 'query' | 'json', S extends z.ZodMiniType>(
  target: T,
  schema: S,
  options: { message?: string } = {},
) {
  const check = (value: unknown, c: Context) => {
    const result = schema.safeParse(target === 'json' && !isObject(value) ? {} : value);
    if (!result.success) return refused(c, result.error.issues, options.message);
    return result.data as z.output<S>;
  };
  const middleware = validator(target, check);
  if (target !== 'json') return middleware;
  // Hono answers an unreadable JSON body with an exception (a 400 text); here it is a body
  // without the fields, refused like any other in the envelope.
  const json: MiddlewareHandler = async (c, next) => {
    let checked = false;
    try {
      // Its answer is a Response or nothing, whatever Hono's types derive for a validator.
      return (await middleware(c, async () => {
        checked = true;
        await next();
      })) as Response | undefined;
    } catch (err) {
      if (checked || !(err instanceof HTTPException) || err.status !== 400) throw err;
      const answer = check(null, c);
      if (answer instanceof Response) return answer;
      c.req.addValidatedData('json', answer as object);
      await next();
    }
  };
  return json as typeof middleware;
}
