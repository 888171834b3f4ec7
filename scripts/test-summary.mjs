// Sums the JSON reports of Vitest and Playwright into one last line: `N passed, N failed`,
// followed by `, N skipped` when tests did not run (that exact form is what CI reads).
// The line before it says why they did not: tests left out because what they need is missing
// here (Vitest's `meta.leftOut`, see server/store/pg-cluster.ts), e.g.
// `41 PostgreSQL tests left out: PostgreSQL binaries not found …`, and any other skips.
// A report that is missing (its suite never ran) counts as one failure; so does a test that never
// finished (Vitest's `pending`: its worker died under it, e.g. a native addon's abort).
// Exit code: 0 only when every report exists and nothing failed.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
let unfinished = 0;
/** Tests left out: count by JSON `[needs, why]`. */
const leftOut = new Map();

function vitest(r) {
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const f of r.testResults ?? []) {
    // A file that failed to load has no tests but fails the suite.
    if (f.status === 'failed' && (f.assertionResults ?? []).length === 0) failed += 1;
    for (const t of f.assertionResults ?? []) {
      if (t.status === 'pending') unfinished += 1;
      const why = t.meta?.leftOut;
      if (t.status !== 'skipped' || why === undefined) continue;
      const key = JSON.stringify([why.needs, why.why]);
      leftOut.set(key, (leftOut.get(key) ?? 0) + 1);
    }
  }
}

function playwright(r) {
  const s = r.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  if ((r.errors ?? []).length > 0 && !s.unexpected) failed += r.errors.length;
}

for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.error(`missing report: ${file}`);
    failed += 1;
    continue;
  }
  if ('numPassedTests' in report) vitest(report);
  else playwright(report);
}

if (unfinished > 0) {
  console.log(
    `${unfinished} ${unfinished === 1 ? 'test' : 'tests'} never finished (a worker died?)`,
  );
  failed += unfinished;
}
let explained = 0;
for (const [key, n] of leftOut) {
  const [needs, why] = JSON.parse(key);
  console.log(`${n} ${needs} ${n === 1 ? 'test' : 'tests'} left out: ${why}`);
  explained += n;
}
// Other skips: a test's own skip, or a Playwright serial group cut short by a failure.
if (skipped > explained) console.log(`${skipped - explained} other tests skipped`);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
