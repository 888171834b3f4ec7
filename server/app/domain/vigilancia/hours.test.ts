// Rule 6's opening hours as a manager sets them: `HH:MM` on the wire, validated with field
// errors, kept per store, and read by the rule, overnight ranges included.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RuleSetting } from '#contract/api/vigilancia';
import { createAlertsStore, openStore } from '../../../store';
import type { PostingFact, Store } from '../../../store';
import { evaluateEntry } from './evaluate';
import { createSettings, defaultSettings, ruleErrors } from './settings';

let store: Store;
beforeAll(async () => {
  store = await openStore({ sqlitePath: ':memory:' });
});
afterAll(() => store.close());

const hours = (abre: unknown, fecha: unknown): RuleSetting => ({
  codigo: 'fora_do_horario',
  ligada: true,
  parametros: { abre, fecha } as RuleSetting['parametros'],
});

/** A posting at local São Paulo time `hh:mm` on 28 Nov 2026 (UTC−3). */
function postingAt(hhmm: string): PostingFact {
  return {
    key: `k-${hhmm}`,
    establishment_id: 1,
    terminal_id: '7',
    customer_key: '+5511987654321',
    amount: 1_000,
    created_at: Date.parse(`2026-11-28T${hhmm}:00-03:00`),
    state: 'lançado',
    kind: 'pontos',
  };
}

describe('opening hours (rule 6)', () => {
  test('hours that are not HH:MM, or a closing equal to the opening, are field errors', () => {
    expect(ruleErrors([hours('7:00', '22:30')])).toEqual({
      'regras.0.parametros.abre': ['Informe a hora como HH:MM, de 00:00 a 23:59.'],
    });
    expect(ruleErrors([hours('07:00', '24:30')])).toEqual({
      'regras.0.parametros.fecha': ['Informe a hora como HH:MM, de 00:00 a 23:59.'],
    });
    expect(ruleErrors([hours('18:00', '18:00')])).toEqual({
      'regras.0.parametros.fecha': ['O fechamento deve ser diferente da abertura.'],
    });
    expect(ruleErrors([hours(420, '22:30')])).toEqual({
      'regras.0.parametros.abre': ['Informe a hora como HH:MM, de 00:00 a 23:59.'],
    });
    expect(
      ruleErrors([
        { codigo: 'repeticao', ligada: true, parametros: { por_dia: 1, outro: 3 } },
        hours('18:00', '02:00'),
      ]),
    ).toEqual({
      'regras.0.parametros.por_dia': ['Informe um número inteiro de 2 a 50.'],
      'regras.0.parametros.outro': ['Limite desconhecido nesta regra.'],
    });
  });

  test('saved as HH:MM, read back as HH:MM per store; defaults 07:00–22:30', async () => {
    const settings = createSettings(createAlertsStore(store), () => Date.now());
    const before = settings.toWire(await settings.get(9));
    expect(before.find((r) => r.codigo === 'fora_do_horario')!.parametros).toEqual({
      abre: '07:00',
      fecha: '22:30',
    });
    await settings.save(9, [hours('18:00', '02:00')], 'Gerente');
    const wire = settings.toWire(await settings.get(9));
    expect(wire.find((r) => r.codigo === 'fora_do_horario')!.parametros).toEqual({
      abre: '18:00',
      fecha: '02:00',
    });
    const other = settings.toWire(await settings.get(10));
    expect(other.find((r) => r.codigo === 'fora_do_horario')!.parametros.abre).toBe('07:00');
    await settings.save(9, [hours('08:15', '00:00')], 'Gerente');
    expect((await settings.get(9)).fora_do_horario.p).toEqual({ abre_min: 495, fecha_min: 1440 });
  });

  test('an overnight range 18:00–02:00 flags 03:00 and 17:59, not 23:00, 01:59 or 18:00', async () => {
    const settings = createSettings(createAlertsStore(store), () => Date.now());
    await settings.save(11, [hours('18:00', '02:00')], 'Gerente');
    const s = { ...defaultSettings(), fora_do_horario: (await settings.get(11)).fora_do_horario };
    for (const code of Object.keys(s) as (keyof typeof s)[]) {
      if (code !== 'fora_do_horario') s[code] = { ...s[code], on: false };
    }
    const deps = { alerts: createAlertsStore(store), p99: async () => null };
    const flagged: string[] = [];
    for (const t of ['03:00', '17:59', '23:00', '01:59', '18:00', '02:00']) {
      const found = await evaluateEntry(deps, s, postingAt(t));
      if (found.length > 0) flagged.push(t);
    }
    expect(flagged).toEqual(['03:00', '17:59', '02:00']);
    const [alert] = await evaluateEntry(deps, s, postingAt('03:00'));
    expect(alert!.summary).toContain('(abre 18:00, fecha 02:00)');
  });
});
