// The contract of the integration API (`/api/integracao/…`): the store's PDV sends each sale,
// reads its outcome and cancels it; the counter lists the PDV's sales, posts one with the
// customer it found, or passes it to a kiosk. The OpenAPI document the server serves is built
// from these same schemas (server/app/http/integracao/openapi.ts). Pure zod.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { isValidCpfDigits } from '../wire';
import { E164_PATTERN, SENHA_MAX } from '../wire-fields';
import { basketAddsUp, basketFields, KioskCustomer, SaleItem, StagedSale } from './kiosk';

export const PDV_MESSAGES = {
  saleId: 'Informe id_venda: de 1 a 64 letras, dígitos ou . _ - :',
  amount: 'Informe valor_gasto em centavos (de 1 a 10000000).',
  cpf: 'CPF inválido: 11 dígitos com os dígitos verificadores certos.',
  phone: 'Celular inválido: use o formato +5511987654321.',
  itemsBad: 'Itens inválidos: cada item tem valor em centavos (inteiro ≥ 0).',
  password: 'Informe a senha do atendente.',
  kiosk: 'Escolha um quiosque ativo.',
  customer: 'Informe o cliente (celular).',
} as const;
const text = PDV_MESSAGES;

/** States of a PDV sale; the last four are final. */
export const PDV_SALE_STATES = [
  'aguardando',
  'no quiosque',
  'lançando',
  'lançada',
  'recusada',
  'cancelada',
  'não identificada',
] as const;

/** The Server-Sent Event (on `/api/quiosque/eventos`) that tells a counter of its PDV sales. */
export const PDV_EVENT = 'venda_pdv';

/** Longest `aguardar` of `GET /api/integracao/vendas/{id_venda}` (seconds). */
export const PDV_WAIT_MAX_S = 20;

const SALE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

// ---------------------------------------------------------------- requests

/** `POST /api/integracao/vendas`: one sale of the PDV. */
export const PdvSaleRequest = /* @__PURE__ */ lazySchema(() =>
  z
    .object({
      id_venda: z.string({ error: text.saleId }).check(z.regex(SALE_ID, text.saleId)),
      ...basketFields(text),
      cpf: z.optional(
        z.nullable(
          z.string({ error: text.cpf }).check(
            z.regex(/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/, text.cpf),
            z.refine((v) => isValidCpfDigits(v.replace(/\D/g, '')), text.cpf),
          ),
        ),
      ),
      celular: z.optional(
        z.nullable(
          z
            .string({ error: text.phone })
            .check(z.regex(E164_PATTERN, text.phone), z.regex(/^\+55\d{10,11}$/, text.phone)),
        ),
      ),
    })
    .check(basketAddsUp()),
);
export type PdvSaleRequest = z.input<typeof PdvSaleRequest>;

/** `GET /api/integracao/vendas/{id_venda}?aguardar=segundos`: a bounded long poll. */
export const PdvWaitQuery = /* @__PURE__ */ lazySchema(() =>
  z.object({
    aguardar: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d{1,3}$/)),
        z.transform((v) => Math.min(Number(v), PDV_WAIT_MAX_S)),
      ),
    ),
  }),
);

const SenhaAtendente = /* @__PURE__ */ lazySchema(() =>
  z
    .string({ error: text.password })
    .check(z.minLength(1, text.password), z.maxLength(SENHA_MAX, text.password)),
);

/**
 * `POST /api/integracao/balcao/vendas/{id}/lancar` (with `Idempotency-Key`): the counter posts
 * the PDV's sale for the customer it found. Amount and basket are the PDV's; the `cliente` is
 * pontuar's (the same checks).
 */
export const PdvPostRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({
    cliente: z.looseObject({ celular: z.string({ error: text.customer }) }),
    senha_atendente: SenhaAtendente,
  }),
);
export type PdvPostRequest = z.input<typeof PdvPostRequest>;

/** `POST /api/integracao/balcao/vendas/{id}/quiosque` (F7): the customer claims it there. */
export const PdvToKioskRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({ quiosque: z.int({ error: text.kiosk }), senha_atendente: SenhaAtendente }),
);
export type PdvToKioskRequest = z.input<typeof PdvToKioskRequest>;

/** `GET /api/integracao/balcao/vendas?de=ISO&ate=ISO[&terminal=id]`. */
export const PdvListQuery = /* @__PURE__ */ lazySchema(() =>
  z.object({
    de: z.optional(z.iso.datetime({ offset: true })),
    ate: z.optional(z.iso.datetime({ offset: true })),
    terminal: z.optional(z.string().check(z.regex(/^\d{1,12}$/))),
  }),
);

// ---------------------------------------------------------------- answers (`data`)

/** A PDV sale as the PDV and the counter see it: never a CPF or a full phone. */
export const PdvSale = /* @__PURE__ */ lazySchema(() =>
  z.object({
    /** The server's id of the sale (the counter's endpoints take it). */
    id: z.string(),
    id_venda: z.string(),
    estado: z.enum(PDV_SALE_STATES),
    valor_gasto: z.number(),
    itens: z.array(SaleItem),
    /** Units in the basket (each line's `qtde`, 1 when absent); 0 without a basket. */
    quantidade_itens: z.number(),
    criado_em: z.string(),
    /** When a sale still waiting becomes `não identificada`. */
    expira_em: z.string(),
    /** Points the posting earned (`lançada`), else null. */
    pontos: z.nullable(z.number()),
    /** Rewards the posting won. */
    premios: z.array(z.object({ nome: z.string(), valido_ate: z.string() })),
    /** The customer as the kiosk shows them (first name, masked phone), once posted. */
    cliente: z.nullable(KioskCustomer),
    mensagem: z.nullable(z.string()),
    /** Posted from the PDV's own CPF or phone, with no keystroke at the counter. */
    automatica: z.boolean(),
    /** The counter terminal it rings up for. */
    balcao: z.nullable(z.number()),
    /** The journal's key of its posting (the counter follows it at /api/lancamentos/{key}). */
    lancamento: z.nullable(z.string()),
  }),
);
export type PdvSale = z.infer<typeof PdvSale>;

/** Every answer about one sale. */
export const PdvSaleAnswer = /* @__PURE__ */ lazySchema(() => z.object({ venda: PdvSale }));

/** F7's answer: the PDV sale and the sale staged on the kiosk. */
export const PdvToKioskAnswer = /* @__PURE__ */ lazySchema(() =>
  z.object({ venda: PdvSale, venda_quiosque: StagedSale }),
);

/** Identification counts: "Pontuadas 14 de 20 vendas do PDV". */
export const PdvSummary = /* @__PURE__ */ lazySchema(() =>
  z.object({
    /** Sales of the period, cancelled ones apart. */
    total: z.number(),
    /** Posted to a customer. */
    pontuadas: z.number(),
    /** Expired with nobody identified. */
    nao_identificadas: z.number(),
    /** Still open (waiting, at a kiosk, being posted). */
    em_aberto: z.number(),
    canceladas: z.number(),
  }),
);
export type PdvSummary = z.infer<typeof PdvSummary>;

/** `GET /api/integracao/balcao/vendas`: what waits, the period's counts, the unidentified. */
export const PdvCounterAnswer = /* @__PURE__ */ lazySchema(() =>
  z.object({
    aguardando: z.array(PdvSale),
    resumo: PdvSummary,
    nao_identificadas: z.array(PdvSale),
  }),
);
