// Sums the JSON reports of Vitest and Playwright into one line: `N passed, N failed`.
// A report that is missing (its suite never ran) counts as one failure.
// Exit code: 0 only when every report exists and nothing failed.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;

function vitest(r) {
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that failed to load has no tests but fails the suite.
  for (const f of r.testResults ?? [])
    if (f.status === 'failed' && (f.assertionResults ?? []).length === 0) failed += 1;
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

// Skipped tests (a serial group cut short) are said on their own line: the last line stays plain.
if (skipped) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
