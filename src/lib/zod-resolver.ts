// A tiny react-hook-form resolver over a zod/mini schema (we do not use @hookform/resolvers).
// Issues become RHF's nested errors (path ["cliente","celular"] → errors.cliente.celular),
// first message per field; on success the schema's *output* (transformed values) is returned.
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type * as z from 'zod/mini';

type Issue = { path: PropertyKey[]; message: string; code?: string };

/** Issues → { "cliente.celular": "first message", ... } (paths with no key go to "root"). */
export function issuesToFieldMessages(issues: readonly Issue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'root';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

function setNested(target: Record<string, unknown>, path: string[], value: FieldError): void {
  let node: Record<string, unknown> = target;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      if (node[segment] === undefined) node[segment] = value;
      return;
    }
    const next = node[segment];
    if (typeof next !== 'object' || next === null) {
      const created: Record<string, unknown> = /^\d+$/.test(path[i + 1] ?? '')
        ? ([] as unknown as Record<string, unknown>)
        : {};
      node[segment] = created;
      node = created;
    } else {
      node = next as Record<string, unknown>;
    }
  });
}

export function zodResolver<Schema extends z.ZodMiniType<unknown, FieldValues>>(
  schema: Schema,
): Resolver<z.input<Schema>, unknown, z.output<Schema>> {
  return async (values) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, unknown> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.length > 0 ? issue.path.map(String) : ['root'];
      setNested(errors, path, { type: issue.code, message: issue.message });
    }
    return { values: {}, errors: errors as FieldErrors<z.input<Schema>> };
  };
}
