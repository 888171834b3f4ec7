import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

const dir = mkdtempSync(path.join(tmpdir(), 'test-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The form CI reads on the last line. */
const LAST_LINE = /^\d+ passed, \d+ failed(, \d+ skipped)?$/;
const WHY = 'PostgreSQL binaries not found under /usr/lib/postgresql/*/bin';

let files = 0;
function report(content: unknown): string {
  const file = path.join(dir, `report-${++files}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

async function summary(...reports: string[]): Promise<{ lines: string[]; code: number }> {
  const run = promisify(execFile)(process.execPath, ['scripts/test-summary.mjs', ...reports]);
  try {
    const { stdout } = await run;
    return { lines: stdout.trimEnd().split('\n'), code: 0 };
  } catch (err) {
    const e = err as { stdout: string; code: number };
    return { lines: e.stdout.trimEnd().split('\n'), code: e.code };
  }
}

const result = (status: string, leftOut?: { needs: string; why: string }) => ({
  status,
  title: 't',
  ancestorTitles: [],
  meta: leftOut === undefined ? {} : { leftOut },
});

function vitestReport(tests: ReturnType<typeof result>[]) {
  const count = (s: string) => tests.filter((t) => t.status === s).length;
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('skipped'),
    numTodoTests: 0,
    testResults: [{ status: 'passed', assertionResults: tests }],
  };
}

const playwrightReport = (expected: number, skipped = 0) => ({
  stats: { expected, unexpected: 0, flaky: 0, skipped },
  errors: [],
});

describe('the run summary', () => {
  test('a full run ends with `N passed, 0 failed` and nothing about skips', async () => {
    const unit = report(vitestReport([result('passed'), result('passed')]));
    const { lines, code } = await summary(unit, report(playwrightReport(3)));
    expect(lines).toEqual(['5 passed, 0 failed']);
    expect(code).toBe(0);
  });

  test('tests left out without PostgreSQL are counted on the last line and named before it', async () => {
    const pg = { needs: 'PostgreSQL', why: WHY };
    const unit = report(
      vitestReport([
        result('passed'),
        result('skipped', pg),
        result('skipped', pg),
        result('passed'),
      ]),
    );
    const { lines, code } = await summary(unit, report(playwrightReport(1)));
    expect(lines).toEqual([`2 PostgreSQL tests left out: ${WHY}`, '3 passed, 0 failed, 2 skipped']);
    expect(lines.at(-1)).toMatch(LAST_LINE);
    expect(code).toBe(0);
  });

  test('other skips are said apart from the tests left out', async () => {
    const unit = report(
      vitestReport([result('skipped', { needs: 'PostgreSQL', why: WHY }), result('passed')]),
    );
    const { lines } = await summary(unit, report(playwrightReport(2, 3)));
    expect(lines).toEqual([
      `1 PostgreSQL test left out: ${WHY}`,
      '3 other tests skipped',
      '3 passed, 0 failed, 4 skipped',
    ]);
  });

  test('a missing report is a failure, and so is a file that failed to load', async () => {
    const broken = report({
      ...vitestReport([]),
      testResults: [{ status: 'failed', assertionResults: [] }],
    });
    const { lines, code } = await summary(broken, path.join(dir, 'none.json'));
    expect(lines.at(-1)).toBe('0 passed, 2 failed');
    expect(code).toBe(1);
  });

  test('tests whose worker died under them are failures, said on the line before', async () => {
    const r = await summary(
      report(vitestReport([result('passed'), result('pending'), result('pending')])),
    );
    expect(r.lines.slice(-2)).toEqual([
      '2 tests never finished (a worker died?)',
      '1 passed, 2 failed',
    ]);
    expect(r.code).toBe(1);
  });
});
