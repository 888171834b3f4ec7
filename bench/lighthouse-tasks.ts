// The long tasks of one page under Lighthouse's mobile run, read from Lighthouse's own trace:
// this build beside the previous release, alternated, each in a fresh Chromium on a fresh
// server. For each run it prints Lighthouse's TBT, the "CPU estimate" (every main-thread task
// after the first contentful paint: its thread time × 4, what is over 50 ms, summed; thread
// time is CPU, which other processes on a shared machine do not inflate, where Lighthouse's
// TBT takes each task's wall time) and the longest tasks by thread time with what ran in them.
//
//   npx tsx bench/lighthouse-tasks.ts [--page=/painel] [--runs=3] [--baseline=<git ref>|none]
//                                     [--top=6]
//
// It builds this checkout (npm run build, build:server) and the previous release as
// `npm run bench` does (baseline.ts).

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildBaseline, resolveBaseline } from './baseline';
import { BROWSER_SERVER_ENV } from './browser-bench';
import { buildSpa } from './bundle';
import { CHROMIUM, CHROMIUM_FLAGS } from './lighthouse-bench';
import { buildServer, startServer } from './server-process';
import { median } from './stats';
import { makeTempDir } from './tmp';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; lineNumber?: number } };
}

export interface TaskReport {
  tbtMs: number;
  cpuEstimateMs: number;
  /** Tasks after the first contentful paint, longest thread time first. */
  tasks: { atMs: number; threadMs: number; wallMs: number; what: string }[];
}

/** What ran inside a task: its children of a few telling kinds, longest first. */
function describe(task: TraceEvent, events: readonly TraceEvent[]): string {
  const end = task.ts + (task.dur ?? 0);
  const parts = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.ts < task.ts || e.ts >= end || e === task) continue;
    const d = e.args?.data;
    let label: string | null = null;
    if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule')
      label = `${e.name} ${path.basename(d?.url ?? '') || '?'}${d?.functionName ? ` ${d.functionName}` : ''}`;
    else if (
      [
        'Layout',
        'UpdateLayoutTree',
        'Paint',
        'ParseHTML',
        'TimerFire',
        'FireAnimationFrame',
        'EventDispatch',
        'RunMicrotasks',
        'v8.compile',
        'ParseAuthorStyleSheet',
        'PrePaint',
        'Commit',
        'HitTest',
        'MajorGC',
        'MinorGC',
        'V8.GC_SCAVENGER',
      ].includes(e.name)
    )
      label = e.name;
    if (label === null) continue;
    parts.set(label, (parts.get(label) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
  }
  return [...parts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join('; ');
}

/** One Lighthouse mobile run of `url`, and its trace's tasks. */
export async function pageTasks(url: string): Promise<TaskReport> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_FLAGS,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    if (result === undefined) throw new Error(`lighthouse gave no result for ${url}`);
    const events = (result.artifacts.Trace as unknown as { traceEvents: TraceEvent[] }).traceEvents;
    const mains = new Set(
      events
        .filter(
          (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
        )
        .map((e) => `${e.pid}:${e.tid}`),
    );
    // The page's main thread: the renderer main thread that ran the most.
    const busy = new Map<string, number>();
    for (const e of events) {
      const t = `${e.pid}:${e.tid}`;
      if (e.name === 'RunTask' && mains.has(t)) busy.set(t, (busy.get(t) ?? 0) + (e.dur ?? 0));
    }
    const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
    const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main);
    const fcp = events.find((e) => e.name === 'firstContentfulPaint')?.ts ?? 0;
    const start = events.find((e) => e.name === 'navigationStart')?.ts ?? fcp;
    const tasks = onMain
      .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts >= fcp)
      .map((e) => ({
        event: e,
        atMs: (e.ts - start) / 1000,
        threadMs: (e.tdur ?? e.dur ?? 0) / 1000,
        wallMs: (e.dur ?? 0) / 1000,
      }))
      .sort((a, b) => b.threadMs - a.threadMs);
    const tbt = result.lhr.audits['total-blocking-time'];
    if (tbt?.numericValue === undefined)
      console.warn(
        `  no TBT: ${result.lhr.runtimeError?.message ?? tbt?.errorMessage ?? 'audit missing'}`,
      );
    return {
      tbtMs: tbt?.numericValue ?? Number.NaN,
      cpuEstimateMs: tasks.reduce((sum, t) => sum + Math.max(0, t.threadMs * 4 - 50), 0),
      tasks: tasks.map(({ event, ...t }) => ({ ...t, what: describe(event, onMain) })),
    };
  } finally {
    chrome.kill();
  }
}

async function main(): Promise<void> {
  const arg = (name: string) =>
    process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const page = arg('page') ?? '/painel';
  const runs = Number(arg('runs') ?? 3);
  const top = Number(arg('top') ?? 6);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const tmp = makeTempDir('lighthouse-tasks-');
  try {
    await buildSpa(root);
    await buildServer(root);
    const builds = [{ label: 'this build', root }];
    if (arg('baseline') !== 'none') {
      const chosen = resolveBaseline(root, arg('baseline'));
      const previous = await buildBaseline(root, chosen, tmp.file('previous-release'));
      builds.push({ label: `previous ${chosen.sha.slice(0, 7)}`, root: previous.root });
    }
    const figures = new Map<string, { tbt: number[]; cpu: number[] }>();
    for (let run = 0; run < runs; run++) {
      for (const b of run % 2 === 0 ? builds : [...builds].reverse()) {
        const server = await startServer(b.root, tmp.file('sandbox.db'), {
          APP_DB: tmp.file('app.db'),
          ...BROWSER_SERVER_ENV,
        });
        try {
          const r = await pageTasks(server.url + page);
          const f = figures.get(b.label) ?? { tbt: [], cpu: [] };
          f.tbt.push(r.tbtMs);
          f.cpu.push(r.cpuEstimateMs);
          figures.set(b.label, f);
          console.log(
            `\n${b.label}, run ${run + 1} (load ${loadavg()[0]!.toFixed(1)}): ${page} LH TBT ` +
              `${r.tbtMs.toFixed(0)} ms, CPU estimate ${r.cpuEstimateMs.toFixed(0)} ms`,
          );
          for (const t of r.tasks.slice(0, top)) {
            console.log(
              `  at ${t.atMs.toFixed(0)} ms: ${t.threadMs.toFixed(1)} ms thread ` +
                `(${t.wallMs.toFixed(1)} wall)  ${t.what}`,
            );
          }
        } finally {
          await server.stop();
        }
      }
    }
    console.log('');
    for (const [label, f] of figures) {
      console.log(
        `${label}: LH TBT median ${median(f.tbt).toFixed(0)} ms (${f.tbt.map((v) => v.toFixed(0)).join(', ')}), ` +
          `CPU estimate median ${median(f.cpu).toFixed(0)} ms (${f.cpu.map((v) => v.toFixed(0)).join(', ')})`,
      );
    }
  } finally {
    tmp.remove();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
