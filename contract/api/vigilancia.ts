// The contract of Vigilância, the app server's own API for a manager: the rules (their names,
// why they matter, thresholds and switch per store), the alerts they raise over the store's
// own data (the postings journal, the PDV's sales), and a manager's decision on one. The
// browser parses the answers with it; the server checks the requests and types its answers.
// Pure: zod/mini.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { pageOf } from './page';

export const VIGILANCIA_PATH = '/api/vigilancia';

/** A threshold a manager may change: whole numbers, within [min, max]. */
export interface RuleParam {
  nome: string;
  rotulo: string;
  padrao: number;
  min: number;
  max: number;
}

export interface RuleInfo {
  codigo: string;
  numero: number;
  nome: string;
  porque: string;
  /** On by default (a rule that would fire every day ships off). */
  ligada: boolean;
  parametros: readonly RuleParam[];
}

const p = (nome: string, rotulo: string, padrao: number, min: number, max: number): RuleParam => ({
  nome,
  rotulo,
  padrao,
  min,
  max,
});

/** The eight rules, in order. Codes are stable (stored, exported, in /metrics). */
export const RULES = [
  {
    codigo: 'sem_venda_pdv',
    numero: 1,
    nome: 'Lançamento sem venda no PDV',
    porque:
      'No balcão integrado ao PDV toda venda vem dele: um valor digitado à mão sem venda por trás pode ser uma compra que não existiu.',
    ligada: true,
    parametros: [p('janela_min', 'Procurar venda do PDV até (minutos antes)', 15, 1, 240)],
  },
  {
    codigo: 'outro_valor',
    numero: 2,
    nome: 'Venda do PDV lançada com outro valor',
    porque:
      'O atendente escolheu "Digitar outro valor" e lançou mais do que a venda do PDV: os pontos a mais não correspondem a compra alguma.',
    ligada: true,
    parametros: [
      p('tolerancia_pct', 'Tolerância acima do valor da venda (%)', 10, 0, 100),
      p('janela_min', 'Venda do PDV até (minutos antes)', 15, 1, 240),
    ],
  },
  {
    codigo: 'repeticao',
    numero: 3,
    nome: 'Mesmo cliente pontuado várias vezes',
    porque:
      'Um celular que recebe pontos muitas vezes no mesmo dia costuma ser o do atendente ou de um amigo recebendo compras alheias.',
    ligada: true,
    parametros: [
      p('por_dia', 'Lançamentos no mesmo dia (em qualquer loja)', 4, 2, 50),
      p('minutos', 'Dois lançamentos em até (minutos; 0: não olhar)', 0, 0, 240),
    ],
  },
  {
    codigo: 'concentracao',
    numero: 4,
    nome: 'Concentração num celular',
    porque:
      'Quando um celular leva boa parte dos lançamentos de um turno, os pontos das compras dos outros clientes podem estar indo para ele.',
    ligada: true,
    parametros: [
      p('percentual', 'Parte dos lançamentos do turno (%)', 20, 5, 100),
      p('minimo', 'Lançamentos do celular no turno, ao menos', 5, 2, 100),
    ],
  },
  {
    codigo: 'valor_alto',
    numero: 5,
    nome: 'Valor muito acima do usual',
    porque:
      'Um valor muito maior que os habituais da loja costuma ser erro de digitação ou valor inflado de propósito.',
    ligada: true,
    parametros: [
      p('multiplo_p99', 'Vezes o percentil 99 dos últimos 30 dias', 3, 1, 50),
      p('teto_centavos', 'Teto em centavos (0: sem teto)', 0, 0, 100_000_000),
    ],
  },
  {
    codigo: 'fora_do_horario',
    numero: 6,
    nome: 'Lançamento fora do horário',
    porque: 'Com a loja fechada não há cliente no balcão: quem lança pontos está lançando para si.',
    ligada: true,
    parametros: [
      p('abre_min', 'Abre às (minutos desde 0h)', 7 * 60, 0, 1439),
      p('fecha_min', 'Fecha às (minutos desde 0h)', 22 * 60 + 30, 1, 1440),
    ],
  },
  {
    codigo: 'premio_suspeito',
    numero: 7,
    nome: 'Prêmio de saldo suspeito',
    porque:
      'Entregar um prêmio a um cliente cujo saldo veio sobretudo de lançamentos em alerta é onde a fraude vira dinheiro.',
    ligada: true,
    parametros: [
      p('percentual', 'Parte do valor vinda de lançamentos em alerta (%)', 50, 1, 100),
      p('dias', 'Lançamentos dos últimos (dias)', 90, 1, 365),
    ],
  },
  {
    codigo: 'estorno_apos_pontuacao',
    numero: 8,
    nome: 'Estorno após pontuação',
    porque:
      'A venda foi cancelada no PDV depois de pontuada: os pontos continuam com o cliente até um gerente estorná-los no painel do programa.',
    ligada: true,
    parametros: [],
  },
] as const satisfies readonly RuleInfo[];

export type RuleCode = (typeof RULES)[number]['codigo'];
export const RULE_CODES = RULES.map((r) => r.codigo) as unknown as readonly [
  RuleCode,
  ...RuleCode[],
];

export const ALERT_STATES = ['aberto', 'reconhecido', 'descartado'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const ALERT_PAGE_SIZE = 50;
export const ALERT_EXPORT_LIMIT = 5_000;

const optionalText = (max: number) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((s: string | undefined) =>
      s === undefined || s.trim() === '' ? null : s.trim().slice(0, max),
    ),
  );

/** `GET /api/vigilancia/alertas`: filters (all optional) and the page. */
export const AlertQuery = /* @__PURE__ */ lazySchema(() =>
  z.object({
    regra: z.optional(z.enum(RULE_CODES, { error: 'Regra desconhecida.' })),
    estado: z.optional(z.enum(ALERT_STATES, { error: 'Estado desconhecido.' })),
    terminal: optionalText(40),
    dia: z.optional(
      z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Informe o dia como AAAA-MM-DD.')),
    ),
    /** The customer's phone, digits (with or without the country code). */
    celular: z.optional(z.string().check(z.regex(/^\+?\d{10,13}$/, 'Celular inválido.'))),
    pagina: z.optional(z.string().check(z.regex(/^\d{1,6}$/, 'Página inválida.'))),
  }),
);
export type AlertQuery = z.output<typeof AlertQuery>;

/** One posting of an alert's evidence. */
export const EvidencePosting = /* @__PURE__ */ lazySchema(() =>
  z.object({
    chave: z.string(),
    quando: z.string(),
    valor: z.int(),
    terminal: z.nullable(z.string()),
    loja: z.int(),
    estado: z.string(),
  }),
);

/** An alert as the list shows it. */
export const AlertWire = /* @__PURE__ */ lazySchema(() =>
  z.object({
    id: z.int(),
    regra: z.enum(RULE_CODES),
    regra_nome: z.string(),
    loja: z.int(),
    terminal: z.nullable(z.string()),
    terminal_nome: z.nullable(z.string()),
    /** The customer's phone, masked: `(11) 9••••-4321`. */
    cliente: z.nullable(z.string()),
    dia: z.string(),
    valor: z.nullable(z.int()),
    resumo: z.string(),
    estado: z.enum(ALERT_STATES),
    nota: z.nullable(z.string()),
    decidido_por: z.nullable(z.string()),
    decidido_em: z.nullable(z.string()),
    criado_em: z.string(),
  }),
);
export type AlertWire = z.infer<typeof AlertWire>;

/** `data` of `GET /api/vigilancia/alertas`. */
export const AlertPage = /* @__PURE__ */ lazySchema(() =>
  pageOf(AlertWire, {
    /** Open alerts by rule code (whole numbers). */
    abertos: z.looseObject({}),
  }),
);
export type AlertPage = z.infer<typeof AlertPage>;

/** `data` of `GET /api/vigilancia/alertas/{id}`: the alert with its evidence. */
export const AlertDetail = /* @__PURE__ */ lazySchema(() =>
  z.object({
    alerta: AlertWire,
    porque: z.string(),
    lancamentos: z.array(EvidencePosting),
    /** What the rule saw beyond the postings (the PDV sale, or its absence; thresholds). */
    evidencia: z.looseObject({}),
    /** Where the shift ledger shows it: the counter terminal and the local day. */
    turno: z.nullable(z.object({ terminal: z.string(), dia: z.string(), link: z.string() })),
  }),
);
export type AlertDetail = z.infer<typeof AlertDetail>;

/** `POST /api/vigilancia/alertas/{id}/decisao`. */
export const DecisionRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({
    acao: z.enum(['reconhecer', 'descartar'], { error: 'Escolha reconhecer ou descartar.' }),
    nota: z.string({ error: 'Escreva uma nota.' }).check(
      z.refine((s) => s.trim().length >= 3, { error: 'Escreva uma nota (3 letras ou mais).' }),
      z.maxLength(500, 'A nota vai até 500 caracteres.'),
    ),
  }),
);
export type DecisionRequest = z.input<typeof DecisionRequest>;

/** One rule as this store has it. */
export const RuleSetting = /* @__PURE__ */ lazySchema(() =>
  z.object({
    codigo: z.enum(RULE_CODES),
    ligada: z.boolean(),
    /**
     * Threshold name → whole number within its range; rule 6's hours `abre` and `fecha` as
     * `HH:MM` (the server answers 422 with each wrong one as a field error).
     */
    parametros: z
      .looseObject({})
      .check(
        z.refine(
          (r) => Object.values(r).every((v) => Number.isInteger(v) || typeof v === 'string'),
          { error: 'Os limites são números inteiros.' },
        ),
      ),
  }),
);
export type RuleSetting = z.infer<typeof RuleSetting>;

/** `data` of `GET /api/vigilancia/regras`, and the body of `PUT` (the same `regras`). */
export const RulesWire = /* @__PURE__ */ lazySchema(() =>
  z.object({ regras: z.array(RuleSetting) }),
);
export type RulesWire = z.infer<typeof RulesWire>;

/** `data` of `GET /api/vigilancia/exportar`: every alert of the filters (CSV). */
export const AlertExport = /* @__PURE__ */ lazySchema(() =>
  z.object({ itens: z.array(AlertWire), total: z.int() }),
);
export type AlertExport = z.infer<typeof AlertExport>;
