// The pieces every body's validation is built from: field errors, their order, one rule per
// check, and the "not sent" forms of a value (see validation.ts for the rules themselves).

import * as z from 'zod';
import * as fields from '../wire-fields';

export type FieldErrors = Record<string, string[]>;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** The first message of a set of field errors (the response's `message`). */
export function firstError(errors: FieldErrors): string {
  for (const list of Object.values(errors)) {
    if (list[0] !== undefined) return list[0];
  }
  return 'Dados inválidos.';
}

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Characters as a person counts them (an emoji is one), not UTF-16 units. */
export const charCount = (s: string): number => [...s].length;

/** zod's issues as field errors: `a.b.0.c` → its messages, in the order they were found. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[issue.path.join('.')] ??= []).push(issue.message);
  return errors;
}

/** A path's place in `order`: that of the path or of its nearest listed parent (`itens.2.valor` → `itens`). */
function rank(order: readonly string[], path: string): number {
  for (let p = path; ; p = p.slice(0, p.lastIndexOf('.'))) {
    const i = order.indexOf(p);
    if (i >= 0) return i;
    if (!p.includes('.')) return order.length;
  }
}

/**
 * The errors with their fields in `order`: a check made after the parse (one across fields,
 * or one needing the request) takes its field's place; paths of one rank keep zod's order.
 */
function inFieldOrder(errors: FieldErrors, order: readonly string[]): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).sort(([a], [b]) => rank(order, a) - rank(order, b)),
  );
}

/** A check whose failure ends the field's checks (one message per field). */
export const rule = <T>(test: (value: T) => boolean, message: string) =>
  z.refine<T>(test, { error: message, abort: true });

/**
 * Free text a person can read (fields.isCleanText): no control characters, NUL or lone
 * surrogates, and not only zero-width characters. Checked on the trimmed text.
 */
export const clean = (message: string) => rule(fields.isCleanText, message);

/** One message when the value is missing (absent or null), another for a wrong type. */
export const missingOr = (missing: string, wrongType: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? missing : wrongType;

/** Absent and null are "not sent". */
export const nullish = (v: unknown) => (v === null ? undefined : v);
/** Absent, null and '' are "not sent". */
export const emptyOmitted = (v: unknown) => (v === null || v === '' ? undefined : v);
/** Absent, null and '' are "not sent"; other text is trimmed. */
export const trimmedOrOmitted = (v: unknown) =>
  v === null || v === '' ? undefined : typeof v === 'string' ? v.trim() : v;
/** Absent, null and blank are "not sent"; other text is trimmed. */
export const blankOmitted = (v: unknown) =>
  v === null ? undefined : typeof v === 'string' ? v.trim() || undefined : v;

/** An optional text field: anything but a string, or one over `max` characters, is an error. */
export function optionalText(
  max: number,
  typeMessage: string,
  maxMessage: string,
  ...more: z.core.$ZodCheck<string>[]
) {
  return z.preprocess(
    blankOmitted,
    z.optional(
      z.string({ error: typeMessage }).check(
        rule((s) => charCount(s) <= max, maxMessage),
        ...more,
      ),
    ),
  );
}

/** An optional integer sent as a JSON number, from `min` to `max`. */
export function optionalInteger(min: number, max: number, message: string) {
  return z.preprocess(
    nullish,
    z.optional(
      z
        .number({ error: message })
        .check(rule((n) => Number.isSafeInteger(n) && n >= min && n <= max, message)),
    ),
  );
}

/** The parsed value, or every error with the fields in `order` (zod's order within one). */
export function finish<T>(
  parsed: z.ZodSafeParseResult<T>,
  errors: FieldErrors,
  order: readonly string[],
): Validated<T> {
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, value: parsed.data };
  return { ok: false, errors: inFieldOrder(errors, order) };
}

export const ID_CLIENTE = 'O id do cliente deve ser um número inteiro positivo.';
