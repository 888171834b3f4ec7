// Calls to the loyalty service per customer served at the counter, as the app server counts
// them (/metrics), for `npm run bench`: the counter in Debian's Chromium against the server as
// `npm start` runs it, on a fresh sandbox, serving in turn the demo's customers of each kind
// (see e2e/support/service-calls.ts for what one customer served is).

import { chromium } from '@playwright/test';
import {
  describeServed,
  openShift,
  serveCustomer,
  type Served,
} from '../e2e/support/service-calls';
import type { RunningServer } from './server-process';
import { CHROMIUM_ARGS } from '../e2e/support/chromium-args';

/** The demo's customers, one of each kind, and an amount for each (see server/sandbox/seed.ts). */
const CUSTOMERS = [
  {
    label: 'no reward waiting, none won',
    target: 3,
    phoneDigits: '31991234567', // Carlos
    cents: '1000',
  },
  { label: 'not registered yet', target: 3, phoneDigits: '11955501234', cents: '2000' },
  {
    label: 'rewards waiting, none won',
    target: 4,
    phoneDigits: '21998765432', // João: the lookup reads his rewards waiting too
    cents: '1234',
  },
  {
    label: 'a reward waiting, one won',
    target: 5,
    phoneDigits: '11987654321', // Maria: and the reward won, for "Entregar agora"
    cents: '2590',
  },
] as const;

/** Serves each customer in turn on one counter (a new browser), printing each as it goes. */
async function callsRound(baseUrl: string, print: (line: string) => void): Promise<Served[]> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(baseUrl);
    await openShift(page);
    const served: Served[] = [];
    for (const c of CUSTOMERS) {
      const s = await serveCustomer(page, baseUrl, c);
      print(`  ${describeServed(s)}`);
      served.push(s);
    }
    return served;
  } finally {
    await browser.close();
  }
}

/** Each kind of customer served: its calls to the service in each run, and their limit. */
export interface CallsFigure {
  label: string;
  target: number;
  totals: number[];
}

/** `runs` rounds, each on a server of its own (a fresh sandbox): the calls of each kind. */
export async function callsBench(o: {
  runs: number;
  start: (run: number) => Promise<RunningServer>;
  print: (line: string) => void;
}): Promise<CallsFigure[]> {
  const figures = CUSTOMERS.map((c) => ({
    label: c.label,
    target: c.target,
    totals: [] as number[],
  }));
  for (let run = 0; run < o.runs; run++) {
    const server = await o.start(run);
    try {
      o.print(`run ${run + 1}:`);
      const served = await callsRound(server.url, o.print);
      served.forEach((s, i) => figures[i]!.totals.push(s.total));
    } finally {
      await server.stop();
    }
  }
  return figures;
}
