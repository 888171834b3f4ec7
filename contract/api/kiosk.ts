// The contract of the kiosk's endpoints on the app server (`/api/quiosque/…`): every request
// body and every answer's `data`, imported by the browser (which parses the answers) and by
// the server (which validates the requests and types its answers with `z.input`). Pure zod:
// no React, no Node. Each schema is built at its first use (`lazySchema`); each is marked pure
// so that the browser's bundle leaves out what it never uses (it sends the requests typed by
// these schemas, and only the server checks them), and so does not carry their checks.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { ITENS_MAX, KIOSK_SALE_STATES, VALOR_GASTO_MAX, VALOR_GASTO_MIN } from '../wire';
import { DESCRICAO_MAX, E164_PATTERN, NOME_MAX, QTDE_MAX, SENHA_MAX } from '../wire-fields';

/** What the kiosk's endpoints answer at a field (and the few refusals the kiosk screen names). */
export const KIOSK_MESSAGES = {
  phone: 'Digite o celular com DDD (11 dígitos).',
  consent: 'Para se cadastrar, aceite o uso dos seus dados.',
  name: `O nome pode ter no máximo ${NOME_MAX} caracteres.`,
  amount: 'Informe o valor da compra (de R$ 0,01 a R$ 100.000,00).',
  password: 'Informe a senha do atendente.',
  kiosk: 'Escolha um quiosque ativo.',
  items: 'A soma dos itens deve ser igual ao valor da compra.',
  itemsBad: 'Itens inválidos: cada item tem valor em centavos (inteiro ≥ 0).',
  tooManyLookups: 'Muitas consultas seguidas. Aguarde um minuto.',
} as const;
const text = KIOSK_MESSAGES;

// ---------------------------------------------------------------- requests

const codePoints = (s: string) => [...s].length;

/** A Brazilian phone in E.164 with its area code: `+55` and 11 digits. */
const Celular = /* @__PURE__ */ lazySchema(() =>
  z
    .string({ error: text.phone })
    .check(
      z.refine((v) => E164_PATTERN.test(v) && v.startsWith('+55') && v.length === 14, text.phone),
    ),
);

/** A name as typed, tidied: outer spaces dropped, inner runs of spaces made one. */
const tidy = (v: string) => v.trim().replace(/\s+/g, ' ');

/** An optional name of at most NOME_MAX characters once tidied; blank reads as none. */
const Nome = /* @__PURE__ */ lazySchema(() =>
  z.optional(
    z.nullable(
      z.pipe(
        z
          .string({ error: text.name })
          .check(z.refine((v) => codePoints(tidy(v)) <= NOME_MAX, text.name)),
        z.transform((v) => tidy(v) || undefined),
      ),
    ),
  ),
);

const SenhaAtendente = /* @__PURE__ */ lazySchema(() =>
  z
    .string({ error: text.password })
    .check(z.refine((v) => v !== '' && codePoints(v) <= SENHA_MAX, text.password)),
);

/** `POST /api/quiosque/saldo`: a customer's balance by phone. */
export const BalanceRequest = /* @__PURE__ */ lazySchema(() => z.object({ celular: Celular }));
export type BalanceRequest = z.input<typeof BalanceRequest>;

/** `POST /api/quiosque/cadastro`: registration, only with the customer's consent. */
export const RegisterRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({
    celular: Celular,
    nome: Nome,
    consentimento: z.literal(true, { error: text.consent }),
  }),
);
export type RegisterRequest = z.input<typeof RegisterRequest>;

/** `POST /api/quiosque/venda/{id}/resgatar`: consent is needed only by a new customer. */
export const ClaimRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({
    celular: Celular,
    nome: Nome,
    consentimento: z.optional(z.boolean({ error: text.consent })),
  }),
);
export type ClaimRequest = z.input<typeof ClaimRequest>;

/** `POST /api/quiosque/sair`: leaving kiosk mode asks the attendant password. */
export const ExitRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({ senha_atendente: SenhaAtendente }),
);
export type ExitRequest = z.input<typeof ExitRequest>;

/** One line of a staged sale's basket, in integer cents. */
export const SaleItem = /* @__PURE__ */ lazySchema(() =>
  z.object({
    descricao: z.optional(
      z
        .string({ error: text.itemsBad })
        .check(z.refine((v) => codePoints(v) <= DESCRICAO_MAX, text.itemsBad)),
    ),
    qtde: z.optional(
      z
        .int({ error: text.itemsBad })
        .check(z.gte(1, text.itemsBad), z.lte(QTDE_MAX, text.itemsBad)),
    ),
    valor: z.int({ error: text.itemsBad }).check(z.gte(0, text.itemsBad)),
  }),
);
export type SaleItem = z.infer<typeof SaleItem>;

/** A sale's amount and optional basket (the kiosk's and the PDV's), with their messages. */
export const basketFields = (messages: { amount: string; itemsBad: string }) => ({
  valor_gasto: z
    .int({ error: messages.amount })
    .check(z.gte(VALOR_GASTO_MIN, messages.amount), z.lte(VALOR_GASTO_MAX, messages.amount)),
  itens: z.optional(
    z.nullable(
      z
        .array(SaleItem, { error: messages.itemsBad })
        .check(z.maxLength(ITENS_MAX, messages.itemsBad)),
    ),
  ),
});

/** The amount and basket of a sale, and the attendant password it is posted with. */
const saleShape = () => ({
  ...basketFields(text),
  senha_atendente: SenhaAtendente,
});

/** A basket's lines add up to `valor_gasto` (checked whenever both are well-formed). */
export const basketAddsUp = () =>
  z.refine<{ valor_gasto: number; itens?: SaleItem[] | null | undefined }>(
    (sale) =>
      sale.itens == null || sale.itens.reduce((s, i) => s + i.valor, 0) === sale.valor_gasto,
    {
      message: text.items,
      path: ['itens'],
      when: (payload) =>
        !payload.issues.some((i) => i.path?.[0] === 'valor_gasto' || i.path?.[0] === 'itens'),
    },
  );

/** `POST /api/quiosque/venda`: the attendant stages a sale on the kiosk itself. */
export const StageHereRequest = /* @__PURE__ */ lazySchema(() =>
  z.object(saleShape()).check(basketAddsUp()),
);
export type StageHereRequest = z.input<typeof StageHereRequest>;

/** `POST /api/quiosque/vendas`: the counter stages a sale for one of the active kiosks. */
export const StageForKioskRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({ ...saleShape(), quiosque: z.int({ error: text.kiosk }) }).check(basketAddsUp()),
);
export type StageForKioskRequest = z.input<typeof StageForKioskRequest>;

// ---------------------------------------------------------------- answers (`data`)

/**
 * What a kiosk may show of a customer: the first name, a masked phone, the balance, points in
 * carência with their release day, the next expiration and the pending rewards.
 */
export const KioskCustomer = /* @__PURE__ */ lazySchema(() =>
  z.object({
    /** First word of the name; null when the service has none ("CLIENTE DESCONHECIDO"). */
    primeiro_nome: z.nullable(z.string()),
    /** `(11) 9••••-4321`. */
    celular: z.string(),
    saldo: z.number(),
    saldo_carencia: z.number(),
    /** YYYY-MM-DD the points in carência count (the next day, São Paulo), or null. */
    carencia_liberada_em: z.nullable(z.string()),
    /** Points expiring first and their last valid day, or null. */
    proximo_vencimento: z.nullable(z.object({ pontos: z.number(), data_validade: z.string() })),
    premios_pendentes: z.array(z.object({ nome: z.string(), valido_ate: z.string() })),
  }),
);
export type KioskCustomer = z.infer<typeof KioskCustomer>;

export const SaleState = /* @__PURE__ */ lazySchema(() => z.enum(KIOSK_SALE_STATES));
export type SaleState = z.infer<typeof SaleState>;

/** A staged sale as a kiosk and a counter see it (never the attendant password). */
export const StagedSale = /* @__PURE__ */ lazySchema(() =>
  z.object({
    id: z.string(),
    estado: SaleState,
    valor_gasto: z.number(),
    itens: z.array(SaleItem),
    criado_em: z.string(),
    expira_em: z.string(),
    mensagem: z.nullable(z.string()),
    pontos: z.nullable(z.number()),
    cliente: z.nullable(KioskCustomer),
    quiosque: z.number(),
    balcao: z.nullable(z.number()),
  }),
);
export type StagedSale = z.infer<typeof StagedSale>;

/** `saldo` and `cadastro`: whether the phone is registered, and the customer's view. */
export const BalanceAnswer = /* @__PURE__ */ lazySchema(() =>
  z.object({ cadastrado: z.boolean(), cliente: z.nullable(KioskCustomer) }),
);

/**
 * The kiosk's sale: `GET venda`, `POST venda`, `resgatar`, the event stream's `pronto`, and the
 * 409 of a sale already taken. None waiting: null.
 */
export const KioskSaleAnswer = /* @__PURE__ */ lazySchema(() =>
  z.object({ venda: z.nullable(StagedSale) }),
);

/** The counter's sale: `POST vendas`, `GET vendas/{id}`, `POST vendas/{id}/cancelar`. */
export const CounterSaleAnswer = /* @__PURE__ */ lazySchema(() => z.object({ venda: StagedSale }));

/** `GET /api/quiosque/terminais`: the active kiosks a counter may send a sale to. */
export const KiosksAnswer = /* @__PURE__ */ lazySchema(() =>
  z.object({ quiosques: z.array(z.object({ id: z.number(), nome: z.string() })) }),
);

/** `POST /api/quiosque/sair`. */
export const ExitAnswer = /* @__PURE__ */ lazySchema(() => z.object({ ok: z.boolean() }));

/** Events of `GET /api/quiosque/eventos` (Server-Sent Events) and what each carries. */
export const KIOSK_EVENTS = {
  /** On every (re)connection: the kiosk's open sale (a counter: null). */
  ready: 'pronto',
  /** A sale of this terminal changed: the sale itself. */
  sale: 'venda',
  /** Closed for a newer stream of the same terminal. */
  replaced: 'substituido',
} as const;
