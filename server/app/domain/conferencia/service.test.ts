// The nightly conferência says how it started, as it happened: at CONFERENCIA_HORA, at the
// start of a server that came up past that hour, or later catching up on a night without
// one; a manager's run says nothing of the kind. A store with a clock the test moves.
import { afterEach, expect, test } from 'vitest';
import { openStore, type Store } from '../../../store';
import { createConferencia, type ConferenciaService } from './service';

let store: Store | null = null;
let service: ConferenciaService | null = null;
afterEach(async () => {
  await service?.stop();
  await store?.close();
  service = store = null;
});

/** A process's conferência over one store, at the clock `now()` (Brasília, UTC-3). */
async function setup(startAt: string) {
  let now = Date.parse(startAt);
  store ??= await openStore({ sqlitePath: ':memory:', now: () => now });
  const reads: unknown[] = [];
  const own = createConferencia({
    store,
    establishmentId: 1,
    buscar: async (body) => {
      reads.push(body);
      return Response.json(
        { success: false, message: 'Cliente não encontrado', data: {} },
        {
          status: 404,
        },
      );
    },
    circuitOpen: () => false,
    nightlyHour: 3,
    offsetMin: -180,
  });
  return { service: own, at: (t: string) => void (now = Date.parse(t)), reads };
}

/** The run of `dia` the dashboard reads: how it started and who asked. */
const runOf = async (s: ConferenciaService, dia: string) => {
  const c = await s.latest({ dia, fuso: null });
  return c && { dia: c.dia, origem: c.origem, disparo: c.disparo };
};

test('a server started after the nightly hour says its run was at start-up, not at night', async () => {
  const p = await setup('2026-11-22T14:05:00-03:00');
  service = p.service;
  await p.service.tick();
  expect(await runOf(p.service, '2026-11-21')).toEqual({
    dia: '2026-11-21',
    origem: 'noite',
    disparo: 'ao_iniciar',
  });

  // The same process the next night, at the hour: on time.
  p.at('2026-11-23T02:59:00-03:00');
  await p.service.tick();
  expect(await runOf(p.service, '2026-11-22')).toBeNull();
  p.at('2026-11-23T03:00:04-03:00');
  await p.service.tick();
  expect(await runOf(p.service, '2026-11-22')).toEqual({
    dia: '2026-11-22',
    origem: 'noite',
    disparo: 'no_horario',
  });
  // Checked again in the hour: still the one run.
  await p.service.tick();
  expect(await runOf(p.service, '2026-11-22')).toMatchObject({ disparo: 'no_horario' });

  // A night whose hour went by with no check (the process was stuck): caught up, late.
  p.at('2026-11-24T06:30:00-03:00');
  await p.service.tick();
  expect(await runOf(p.service, '2026-11-23')).toEqual({
    dia: '2026-11-23',
    origem: 'noite',
    disparo: 'atrasada',
  });
});

test('a server started within the nightly hour runs it on time; a manager’s run has no trigger', async () => {
  const p = await setup('2026-11-22T03:20:00-03:00');
  service = p.service;
  await p.service.tick();
  expect(await runOf(p.service, '2026-11-21')).toMatchObject({ disparo: 'no_horario' });

  const asked = await p.service.request({ dia: '2026-11-20', fuso: null });
  expect(asked.ok && asked.conferencia).toMatchObject({ origem: 'gerente', disparo: null });
});
