// `npm run bench` sections 7 and 8: the counter in Chromium and Lighthouse, this build and the
// previous release (baseline.ts) side by side. Each run starts both servers on fresh stores and
// measures them in turn, the order swapped every run, so that the machine's noise falls on both
// alike; the figures of this build also fill the bench's own table and targets.

import type { Baseline } from './baseline';
import { BROWSER_SERVER_ENV, browserRound, type BrowserRound } from './browser-bench';
import {
  auditPage,
  COMPARED_PAGES,
  PAGES,
  VARIANTS,
  variantAudit,
  type FormFactor,
  type LighthouseResult,
} from './lighthouse-bench';
import type { Check, Compared, Figure } from './report';
import { spread } from './report';
import { startServer, type RunningServer } from './server-process';
import { median, ms, summarize, table } from './stats';
import type { TempDir } from './tmp';

export interface SectionContext {
  /** This checkout, built. */
  root: string;
  /** The previous release, built; null with `--baseline=none`. */
  previous: Baseline | null;
  runs: number;
  tmp: TempDir;
  print: (text: string) => void;
  figure: (name: string, unit: string, target: string) => Figure;
  checks: Check[];
  /** Rows of the comparison with the previous release, filled by the sections. */
  compared: Compared[];
}

interface Build {
  label: string;
  root: string;
  current: boolean;
}

export const BROWSER = { loads: 3, keystrokes: 48, postings: 8 };
/** The search field's keys against a bare <input>'s, same run (the issue's target). */
const SEARCH_OVER_BARE_LIMIT_MS = 2;

function buildsOf(ctx: SectionContext): Build[] {
  const current: Build = { label: 'this build', root: ctx.root, current: true };
  return ctx.previous === null
    ? [current]
    : [current, { label: 'previous release', root: ctx.previous.root, current: false }];
}

/** The builds in this run's order: swapped every run. */
const orderOf = (builds: readonly Build[], run: number): Build[] =>
  run % 2 === 0 ? [...builds] : [...builds].reverse();

/** Both builds' servers on fresh stores, stopped after `use`. */
async function withServers<T>(
  ctx: SectionContext,
  builds: readonly Build[],
  name: string,
  use: (servers: Map<Build, RunningServer>) => Promise<T>,
): Promise<T> {
  const servers = new Map<Build, RunningServer>();
  try {
    for (const b of builds) {
      const tag = `${name}-${b.current ? 'this' : 'previous'}`;
      servers.set(
        b,
        await startServer(b.root, ctx.tmp.file(`${tag}-sandbox.db`), {
          APP_DB: ctx.tmp.file(`${tag}-app.db`),
          ...BROWSER_SERVER_ENV,
        }),
      );
    }
    return await use(servers);
  } finally {
    for (const s of servers.values()) await s.stop();
  }
}

/** A figure measured on both builds: this build's values also go to the bench's table. */
function comparedFigure(
  ctx: SectionContext,
  name: string,
  unit: string,
  target: string,
  better: Compared['better'] = 'lower',
) {
  const own = ctx.figure(name, unit, target);
  const row: Compared = { name, unit, current: own.values, previous: [], better };
  ctx.compared.push(row);
  return (build: Build, value: number) =>
    build.current ? row.current.push(value) : row.previous.push(value);
}

const p95 = (xs: readonly number[]) => summarize(xs).p95;

function roundLine(r: BrowserRound, frames: string): string {
  const posted =
    r.postedMs.length > 0
      ? `; Enter -> lançado p50 ${ms(median(r.postedMs))} ms, p95 ${ms(p95(r.postedMs))} ms ` +
        `over ${r.postedMs.length}`
      : '';
  const p50 = (xs: readonly number[]) => ms(median(xs));
  return (
    `${frames}keydown->paint p95: amount ${ms(r.amountP95Ms)} ms, search field ` +
    `${ms(r.searchP95Ms)} ms (${r.searchKeyToPaintMs.length} keys), bare <input> ` +
    `${ms(r.bareP95Ms)} ms (${r.bareKeyToPaintMs.length} keys each); medians ` +
    `${p50(r.amountKeyToPaintMs)}, ${p50(r.searchKeyToPaintMs)}, ` +
    `${p50(r.bareKeyToPaintMs)} ms${posted}`
  );
}

/** Section 7: the counter in Chromium, both builds, interleaved. */
export async function counterSection(ctx: SectionContext): Promise<void> {
  const builds = buildsOf(ctx);
  const firstSearch = comparedFigure(
    ctx,
    "phone's last digit -> customer panel, first search after a load",
    'ms',
    '<= 60',
  );
  const postedP50 = comparedFigure(ctx, 'Enter -> "lançado" on the counter, p50', 'ms', '-');
  const postedP95 = comparedFigure(ctx, 'Enter -> "lançado" on the counter, p95', 'ms', '-');
  const amount = comparedFigure(ctx, 'keydown -> next paint, amount field, p95', 'ms', '<= 16');
  const search = comparedFigure(ctx, 'keydown -> next paint, search field, p95', 'ms', '-');
  const bare = comparedFigure(ctx, 'keydown -> next paint, bare <input>, p95', 'ms', '-', null);
  const freeAmount = comparedFigure(
    ctx,
    'keydown -> next paint, amount field, p95, frames unthrottled',
    'ms',
    '<= 16',
  );
  const freeSearch = comparedFigure(
    ctx,
    'keydown -> next paint, search field, p95, frames unthrottled',
    'ms',
    '-',
  );
  const freeBare = comparedFigure(
    ctx,
    'keydown -> next paint, bare <input>, p95, frames unthrottled',
    'ms',
    '-',
    null,
  );
  /** Per run: this build's search field p95 minus the bare <input>'s, at each frame clock. */
  const overBare: number[] = [];
  const freeOverBare: number[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    await withServers(ctx, builds, `browser-${run}`, async (servers) => {
      for (const frameClock of ['vsync', 'unthrottled'] as const) {
        for (const b of orderOf(builds, run)) {
          const r = await browserRound(servers.get(b)!.url, {
            ...BROWSER,
            frameClock,
            postings: frameClock === 'vsync' ? BROWSER.postings : 0,
          });
          if (frameClock === 'vsync') {
            firstSearch(b, median(r.firstSearchMs));
            postedP50(b, median(r.postedMs));
            postedP95(b, p95(r.postedMs));
            amount(b, r.amountP95Ms);
            search(b, r.searchP95Ms);
            bare(b, r.bareP95Ms);
            if (b.current) overBare.push(r.searchP95Ms - r.bareP95Ms);
          } else {
            freeAmount(b, r.amountP95Ms);
            freeSearch(b, r.searchP95Ms);
            freeBare(b, r.bareP95Ms);
            if (b.current) freeOverBare.push(r.searchP95Ms - r.bareP95Ms);
          }
          const first =
            frameClock === 'vsync' ? `first search ${r.firstSearchMs.map(ms).join(', ')} ms; ` : '';
          const frames = frameClock === 'vsync' ? '' : 'frames unthrottled: ';
          ctx.print(`run ${run + 1}, ${b.label}: ${first}${roundLine(r, frames)}`);
        }
      }
    });
  }
  for (const [label, diffs] of [
    ['60 Hz', overBare],
    ['frames unthrottled', freeOverBare],
  ] as const) {
    const d = median(diffs);
    ctx.checks.push({
      name: `search field keydown->paint p95 over a bare <input>'s, ${label}`,
      figure: `${ms(d)} ms`,
      target: `<= ${SEARCH_OVER_BARE_LIMIT_MS} ms`,
      pass: d <= SEARCH_OVER_BARE_LIMIT_MS,
    });
  }
}

/**
 * Section 8: Lighthouse. The mobile runs of COMPARED_PAGES alternate between the two builds;
 * the other pages, desktop and the variants of / are of this build only.
 */
export async function lighthouseSection(ctx: SectionContext): Promise<void> {
  const builds = buildsOf(ctx);
  const results = new Map<Build, LighthouseResult[]>(builds.map((b) => [b, []]));
  const variants = VARIANTS.map((v) => ({ ...v, results: [] as LighthouseResult[] }));
  const onRetry = (m: string) => ctx.print(m);
  for (let run = 0; run < ctx.runs; run++) {
    await withServers(ctx, builds, `lighthouse-${run}`, async (servers) => {
      const url = (b: Build) => servers.get(b)!.url;
      for (const page of COMPARED_PAGES) {
        for (const b of orderOf(builds, run)) {
          results.get(b)!.push(await auditPage(url(b), page, 'mobile', onRetry));
        }
      }
      const current = builds[0]!;
      for (const [page, formFactor] of PAGES.flatMap((p) =>
        (['mobile', 'desktop'] as const).map((f) => [p, f] as const),
      )) {
        if (formFactor === 'mobile' && (COMPARED_PAGES as readonly string[]).includes(page)) {
          continue;
        }
        results.get(current)!.push(await auditPage(url(current), page, formFactor, onRetry));
      }
      for (const v of variants) v.results.push(await variantAudit(url(current), v.keep));
    });
  }
  const of = (b: Build, page: string, formFactor: FormFactor) =>
    results.get(b)!.filter((x) => x.page === page && x.formFactor === formFactor);
  const rows: string[][] = [];
  for (const formFactor of ['mobile', 'desktop'] as const) {
    for (const page of PAGES) {
      const own = of(builds[0]!, page, formFactor);
      rows.push(lighthouseRow(`${formFactor} ${page}`, own));
      ctx
        .figure(`Lighthouse ${formFactor} ${page}`, '', formFactor === 'mobile' ? '>= 98' : '')
        .values.push(...own.map((x) => x.score));
      if (formFactor === 'mobile' && page === '/') {
        rows.push(...variants.map((v) => lighthouseRow(`mobile / ${v.label}`, v.results)));
      }
    }
  }
  for (const v of variants) {
    ctx
      .figure(`Lighthouse mobile / ${v.label}`, '', '-')
      .values.push(...v.results.map((x) => x.score));
  }
  const previous = builds.find((b) => !b.current);
  for (const page of COMPARED_PAGES) {
    const own = of(builds[0]!, page, 'mobile');
    const before = previous ? of(previous, page, 'mobile') : [];
    if (previous) rows.push(lighthouseRow(`previous release, mobile ${page}`, before));
    ctx.compared.push({
      name: `Lighthouse mobile ${page}: total blocking time`,
      unit: 'ms',
      current: own.map((x) => x.tbtMs),
      previous: before.map((x) => x.tbtMs),
      better: 'lower',
    });
  }
  ctx.print(table(['page', 'score', 'LCP ms', 'FCP ms', 'TBT ms'], rows));
  ctx.print(
    'min / median / max over the runs. The variants of / are measured in the same runs ' +
      'through a relay: "without JavaScript" is / as the server sends it with its module ' +
      'scripts removed (header, stylesheet and config kept), the ceiling of a page that ' +
      'runs no script; "without COOP" drops the page\'s Cross-Origin-Opener-Policy header, ' +
      'which makes the browser start a new renderer for the page (the header stays in the ' +
      'product: see the README).',
  );
}

/** A row of the Lighthouse table: score, LCP, FCP and TBT as min / median / max over runs. */
function lighthouseRow(label: string, results: readonly LighthouseResult[]): string[] {
  const times = (['lcpMs', 'fcpMs', 'tbtMs'] as const).map((key) =>
    spread(
      results.map((x) => x[key]),
      'ms',
    ),
  );
  return [
    label,
    spread(
      results.map((x) => x.score),
      '',
    ),
    ...times,
  ];
}
