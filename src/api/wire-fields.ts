// The wire's field limits (characters) and patterns: what the browser's forms and the sandbox
// must agree on. Pure TypeScript that imports nothing, like ./wire.ts, and apart from it only
// so that the counter's first load (which imports wire.ts) does not carry them: only the lazy
// forms, the sandbox and e2e use these.

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
