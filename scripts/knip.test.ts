// Dead code fails `npm run lint`: the knip commands of the lint script, run with this
// repository's knip.jsonc on a tiny project laid out like ours, refuse an export nothing
// imports and one only a test imports, and accept a project without either.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const knipBin = path.join(root, 'node_modules/.bin/knip');
const run = promisify(execFile);

/** The knip invocations of `npm run lint`, as argument lists. */
const lintKnipRuns: string[][] = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts
  .lint!.split('&&')
  .map((part) => part.trim().split(/\s+/))
  .filter(([bin]) => bin === 'knip')
  .map(([, ...args]) => args);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A project with our knip config, an app entry using `used`, and `lib/thing.ts` as given. */
function fixture(thing: string, testFile?: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'knip-fixture-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'src/app'), { recursive: true });
  mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
  cpSync(path.join(root, 'knip.jsonc'), path.join(dir, 'knip.jsonc'));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'fixture',
      private: true,
      type: 'module',
      devDependencies: { vitest: '*' },
    }),
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler' },
    }),
  );
  writeFileSync(
    path.join(dir, 'src/app/main.tsx'),
    "import { used } from '../lib/thing';\nconsole.log(used());\n",
  );
  writeFileSync(path.join(dir, 'src/lib/thing.ts'), thing);
  if (testFile) writeFileSync(path.join(dir, 'src/lib/thing.test.ts'), testFile);
  return dir;
}

/** Each lint knip run's outcome: null when it passed, else what it printed. */
async function lintKnip(dir: string): Promise<(string | null)[]> {
  const outcomes: (string | null)[] = [];
  for (const args of lintKnipRuns) {
    try {
      await run(knipBin, args, { cwd: dir });
      outcomes.push(null);
    } catch (error) {
      outcomes.push(String((error as { stdout?: string }).stdout ?? error));
    }
  }
  return outcomes;
}

describe('knip in npm run lint', { timeout: 120_000 }, () => {
  test('the lint script runs knip in both modes', () => {
    expect(lintKnipRuns).toHaveLength(2);
    expect(lintKnipRuns[1]).toContain('--production');
  });

  test('a project whose every export is used passes', async () => {
    const dir = fixture(
      'export const used = () => helper();\nexport const helper = () => 1;\n',
      "import { expect, test } from 'vitest';\nimport { helper } from './thing';\ntest('h', () => expect(helper()).toBe(1));\n",
    );
    expect(await lintKnip(dir)).toEqual([null, null]);
  });

  test('an export nothing imports fails', async () => {
    const dir = fixture('export const used = () => 1;\nexport const forgotten = () => 2;\n');
    const [all, production] = await lintKnip(dir);
    expect(all).toMatch(/Unused exports[\s\S]*forgotten/);
    expect(production).toMatch(/forgotten/);
  });

  test('an export only its own test imports fails in production mode', async () => {
    const dir = fixture(
      'export const used = () => 1;\nexport const onlyTested = () => 2;\n',
      "import { expect, test } from 'vitest';\nimport { onlyTested } from './thing';\ntest('t', () => expect(onlyTested()).toBe(2));\n",
    );
    const [all, production] = await lintKnip(dir);
    expect(all).toBeNull();
    expect(production).toMatch(/Unused exports[\s\S]*onlyTested/);
  });
});
