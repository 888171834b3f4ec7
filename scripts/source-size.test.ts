// Sizes a reader can hold: no production source file of src/, server/ or contract/ over 400
// lines, no function over 150 (its body, nested functions included). Tests and test helpers
// are not production and are not counted: `*.test.ts(x)`, `server/testing/`,
// `server/app/testing/`, `src/testing/`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const FILE_MAX = 400;
const FUNCTION_MAX = 150;

const ROOTS = ['src', 'server', 'contract'];
const NOT_PRODUCTION = [/\.test\.tsx?$/, /^server\/(app\/)?testing\//, /^src\/testing\//];

const files = ROOTS.flatMap((dir) =>
  readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) =>
    path.posix.join(dir, f.split(path.sep).join('/')),
  ),
)
  .filter((f) => /\.(ts|tsx|mts)$/.test(f) && !f.endsWith('.d.ts'))
  .filter((f) => !NOT_PRODUCTION.some((re) => re.test(f)));

/** Functions longer than `max` lines in `text`: "name (lines)". */
export function longFunctions(fileName: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  function visit(node: ts.Node): void {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      if (lines > max) {
        const name =
          node.name !== undefined && ts.isIdentifier(node.name)
            ? node.name.text
            : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
              ? node.parent.name.text
              : `function at line ${lineOf(node.getStart()) + 1}`;
        found.push(`${fileName}: ${name} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  }
  visit(source);
  return found;
}

test(`no production file of ${ROOTS.join(', ')} over ${FILE_MAX} lines`, () => {
  const long = files
    .map((f) => ({ f, lines: readFileSync(path.join(root, f), 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > FILE_MAX)
    .map(({ f, lines }) => `${f} (${lines} lines)`);
  expect(long).toEqual([]);
});

test(`no production function of ${ROOTS.join(', ')} over ${FUNCTION_MAX} lines`, () => {
  const long = files.flatMap((f) =>
    longFunctions(f, readFileSync(path.join(root, f), 'utf8'), FUNCTION_MAX),
  );
  expect(long).toEqual([]);
});

test('the scan reaches every tree and leaves tests out', () => {
  expect(files).toContain('src/app/app.tsx');
  expect(files).toContain('server/store/journal.ts');
  expect(files).toContain('contract/wire.ts');
  expect(files.filter((f) => f.includes('.test.') || f.includes('/testing/'))).toEqual([]);
});

test('the check finds a long function', () => {
  const body = Array.from({ length: 160 }, (_, i) => `  const x${i} = ${i};`).join('\n');
  expect(longFunctions('x.ts', `function big() {\n${body}\n}\n`, FUNCTION_MAX)).toEqual([
    'x.ts: big (162 lines)',
  ]);
});
