/**
 * Each rule's settings for one store (establishment): its defaults (the contract's RULES)
 * overlaid with what a manager saved (`vigilancia_rules`). Read often (every posting), so kept
 * a few seconds per store in this process; a save here drops it at once (another replica's
 * save is seen within those seconds).
 */
import { RULES } from '#contract/api/vigilancia';
import type { RuleCode, RuleSetting } from '#contract/api/vigilancia';
import { HOURS_PARAMS, hhmm, minutesOf } from '#contract/rules/hours';
import type { AlertsStore } from '../../../store';

export type Settings = Record<RuleCode, { on: boolean; p: Record<string, number> }>;

const KEEP_MS = 5_000;

export function defaultSettings(): Settings {
  const out = {} as Settings;
  for (const r of RULES) {
    out[r.codigo] = {
      on: r.ligada,
      p: Object.fromEntries(r.parametros.map((x) => [x.nome, x.padrao])),
    };
  }
  return out;
}

/** A saved rule's thresholds, each clamped to its range; unknown names dropped. */
export function cleanParams(code: RuleCode, given: Record<string, number>): Record<string, number> {
  const rule = RULES.find((r) => r.codigo === code)!;
  const out: Record<string, number> = {};
  for (const x of rule.parametros as readonly {
    nome: string;
    padrao: number;
    min: number;
    max: number;
  }[]) {
    const v = given[x.nome];
    out[x.nome] =
      typeof v === 'number' && Number.isFinite(v)
        ? Math.min(x.max, Math.max(x.min, Math.trunc(v)))
        : x.padrao;
  }
  return out;
}

const HOURS_RULE = 'fora_do_horario';
const isHour = (name: string): name is keyof typeof HOURS_PARAMS => name in HOURS_PARAMS;

/**
 * What is wrong with rules a manager sent, as field errors keyed `regras.<i>.parametros.<nome>`
 * (empty: nothing). Thresholds are whole numbers within their range; rule 6's `abre` and
 * `fecha` are `HH:MM` and differ (a closing before the opening spans midnight).
 */
export function ruleErrors(rules: readonly RuleSetting[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => (errors[path] ??= []).push(message);
  rules.forEach((r, i) => {
    const info = RULES.find((x) => x.codigo === r.codigo)!;
    const params = info.parametros as readonly { nome: string; min: number; max: number }[];
    const at = (name: string) => `regras.${i}.parametros.${name}`;
    for (const [name, v] of Object.entries(r.parametros)) {
      if (r.codigo === HOURS_RULE && isHour(name)) {
        if (typeof v !== 'string' || minutesOf(v) === null)
          add(at(name), 'Informe a hora como HH:MM, de 00:00 a 23:59.');
        continue;
      }
      const def = params.find((x) => x.nome === name);
      if (def === undefined) add(at(name), 'Limite desconhecido nesta regra.');
      else if (typeof v !== 'number' || !Number.isInteger(v) || v < def.min || v > def.max)
        add(at(name), `Informe um número inteiro de ${def.min} a ${def.max}.`);
    }
    const { abre, fecha } = r.parametros as { abre?: unknown; fecha?: unknown };
    if (r.codigo === HOURS_RULE && typeof abre === 'string' && abre.trim() === fecha)
      add(at('fecha'), 'O fechamento deve ser diferente da abertura.');
  });
  return errors;
}

/** Rule 6's `HH:MM` as the minutes it is kept as (a closing at 00:00 is the day's end). */
function storedParams(r: RuleSetting): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, v] of Object.entries(r.parametros)) {
    if (r.codigo === HOURS_RULE && isHour(name) && typeof v === 'string') {
      const m = minutesOf(v);
      if (m !== null) out[HOURS_PARAMS[name]] = name === 'fecha' && m === 0 ? 1440 : m;
    } else if (typeof v === 'number') out[name] = v;
  }
  return out;
}

/** Rule 6's thresholds on the wire: `{ abre: "07:00", fecha: "22:30" }`. */
function wireParams(code: RuleCode, p: Record<string, number>): Record<string, number | string> {
  if (code !== HOURS_RULE) return p;
  return { abre: hhmm(p[HOURS_PARAMS.abre]!), fecha: hhmm(p[HOURS_PARAMS.fecha]!) };
}

export function createSettings(alerts: AlertsStore, now: () => number) {
  const cache = new Map<number, { at: number; settings: Promise<Settings> }>();
  const load = async (establishmentId: number): Promise<Settings> => {
    const s = defaultSettings();
    for (const row of await alerts.ruleSettings(establishmentId)) {
      const code = row.rule as RuleCode;
      if (!(code in s)) continue;
      s[code] = {
        on: row.enabled === 1,
        p: cleanParams(code, JSON.parse(row.params) as Record<string, number>),
      };
    }
    return s;
  };
  return {
    get(establishmentId: number): Promise<Settings> {
      const hit = cache.get(establishmentId);
      if (hit !== undefined && now() - hit.at < KEEP_MS) return hit.settings;
      const settings = load(establishmentId);
      settings.catch(() => cache.delete(establishmentId));
      cache.set(establishmentId, { at: now(), settings });
      return settings;
    },
    async save(establishmentId: number, rules: readonly RuleSetting[], by: string | null) {
      for (const r of rules) {
        await alerts.saveRule(
          establishmentId,
          r.codigo,
          r.ligada,
          cleanParams(r.codigo, storedParams(r)),
          by,
        );
      }
      cache.delete(establishmentId);
    },
    toWire(s: Settings): RuleSetting[] {
      return RULES.map((r) => ({
        codigo: r.codigo,
        ligada: s[r.codigo].on,
        parametros: wireParams(r.codigo, s[r.codigo].p),
      }));
    },
  };
}
