/**
 * Each rule's settings for one store (establishment): its defaults (the contract's RULES)
 * overlaid with what a manager saved (`vigilancia_rules`). Read often (every posting), so kept
 * a few seconds per store in this process; a save here drops it at once (another replica's
 * save is seen within those seconds).
 */
import { RULES } from '#contract/api/vigilancia';
import type { RuleCode, RuleSetting } from '#contract/api/vigilancia';
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
          cleanParams(r.codigo, r.parametros as Record<string, number>),
          by,
        );
      }
      cache.delete(establishmentId);
    },
    toWire(s: Settings): RuleSetting[] {
      return RULES.map((r) => ({
        codigo: r.codigo,
        ligada: s[r.codigo].on,
        parametros: s[r.codigo].p,
      }));
    },
  };
}
