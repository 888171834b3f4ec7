// The wire's field limits (characters), patterns and the rule for free text: what the
// browser's forms, the sandbox and the app server must agree on. Pure TypeScript that imports
// nothing, like ./wire.ts, and apart from it only so that the counter's first load (which
// imports wire.ts) does not carry them: only the lazy forms, the sandbox, the app server and
// e2e use these.

export const NOME_MAX = 120;
export const EMAIL_MAX = 120;
export const ENDERECO_MAX = 100;
export const BAIRRO_MAX = 50;
export const CIDADE_MAX = 60;
export const ESTADO_MAX = 50;
export const DESCRICAO_MAX = 200;
export const COMPLEMENTO_MAX = 200;
export const SENHA_MAX = 100;
export const Q_MAX = 100;
export const PER_PAGE_MAX = 100;
export const PER_PAGE_DEFAULT = 15;
export const QTDE_MAX = 1_000_000;
export const ITEM_VALOR_MAX = 10_000_000;

/** A phone in E.164 as the wire carries it: +5511987654321. */
export const E164_PATTERN = /^\+[1-9]\d{7,14}$/;

/** An e-mail the service accepts: one @, a dotted domain without empty labels (no a@b..c). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** A CPF and a CEP as the wire carries them: digits only. */
export const CPF_PATTERN = /^\d{11}$/;
export const CEP_PATTERN = /^\d{8}$/;

/** `genero` on the wire. */
const GENEROS = ['M', 'F'] as const;
export type Genero = (typeof GENEROS)[number];
export const isGenero = (value: string): value is Genero =>
  (GENEROS as readonly string[]).includes(value);

/**
 * C0 and C1 control characters (NUL, tab, newline, ESC, DEL, U+0080–U+009F), and U+2028 and
 * U+2029, which break a line as a newline does.
 */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/**
 * Half of a surrogate pair on its own. With the `u` flag a pair is one code point, so no match
 * is `s.isWellFormed()` (ES2024: newer than the lib this project compiles against).
 */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Text with nothing to see: only format characters (zero-width space and joiners, bidi marks,
 * U+FEFF), other default-ignorable ones (the Hangul fillers, variation selectors) and spaces.
 */
const NOTHING_VISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}\s]*$/u;

/**
 * Whether `s` is text a person typed and can read, for names and the other free-text fields
 * (address, item description): no control character at all (not even a tab or a newline), no
 * NUL, no lone surrogate, and something visible. Text made only of zero-width characters is
 * refused; the same characters inside visible text are kept (the joiner in 👩‍👩‍👧, the
 * non-joiner in Persian). Empty or blank text is not clean either: a field that may be left
 * blank checks that first.
 */
export function isCleanText(s: string): boolean {
  return !CONTROL.test(s) && !LONE_SURROGATE.test(s) && !NOTHING_VISIBLE.test(s);
}
