// No import cycles in src/, server/ or contract/, counting `import type` too: two modules that
// need each other's types are as tangled as two that need each other's values. The only check
// of cycles: ESLint's import-x/no-cycle walked the same graph (value imports only) for about a
// fifth of the lint's CPU, so it is not in eslint.config.js.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every TypeScript file of `dir`, tests included: a test in a cycle is as tangled. */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(root, dir, f));
}

function resolve(from: string, spec: string): string | null {
  // `@/…` is src/ (the Vite and TypeScript alias), `#contract/…` contract/ (package.json's
  // "imports"), the rest is relative or a package.
  const base = spec.startsWith('@/')
    ? path.join(root, 'src', spec.slice(2))
    : spec.startsWith('#contract/')
      ? path.join(root, 'contract', spec.slice('#contract/'.length))
      : spec.startsWith('.')
        ? path.resolve(path.dirname(from), spec)
        : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Every import (values and types) of each file, as resolved files; `edited` gives some files
 * another text than the one on disk.
 */
function graph(files: string[], edited = new Map<string, string>()): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = edited.get(file) ?? readFileSync(file, 'utf8');
    const info = ts.preProcessFile(text, true, true);
    edges.set(
      file,
      info.importedFiles.map((f) => resolve(file, f.fileName)).filter((f) => f !== null),
    );
  }
  return edges;
}

/** The strongly connected components with more than one file (Tarjan). */
function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  function visit(v: string): void {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, order.get(w)!));
      }
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  }
  for (const v of edges.keys()) if (!order.has(v)) visit(v);
  return found;
}

const FILES = [...sources('src'), ...sources('server'), ...sources('contract')];

test('no import cycle in src/, server/ or contract/, type imports included', () => {
  const edges = graph(FILES);
  const imports = [...edges.values()].flat();
  console.log(`import graph: ${FILES.length} files, ${imports.length} imports`);
  // The three ways in are followed: `@/`, `#contract/` and relative paths.
  expect(imports.some((f) => f.startsWith(path.join(root, 'contract')))).toBe(true);
  expect(cycles(edges)).toEqual([]);
});

test('a cycle through the real sources fails: contract/wire.ts importing back its postings', () => {
  // The contract's postings import the wire: the wire importing them back closes a cycle.
  const wire = path.join(root, 'contract/wire.ts');
  const text = `${readFileSync(wire, 'utf8')}\nimport { Lancamento } from './api/postings';\n`;
  expect(cycles(graph(FILES, new Map([[wire, text]])))).toEqual([
    ['contract/api/postings.ts', 'contract/wire.ts'],
  ]);
});

test('a cycle through `#contract/` fails: the wire importing a module of src/ that imports it', () => {
  // src/lib/money.ts imports `#contract/wire`; the wire importing it back closes a cycle.
  const wire = path.join(root, 'contract/wire.ts');
  const text = `${readFileSync(wire, 'utf8')}\nimport { formatBRL } from '../src/lib/money';\n`;
  expect(cycles(graph(FILES, new Map([[wire, text]])))).toEqual([
    ['contract/wire.ts', 'src/lib/money.ts'],
  ]);
});

test('the check finds a cycle of type imports', () => {
  const a = path.join(root, 'src/a.ts');
  const b = path.join(root, 'src/b.ts');
  expect(
    cycles(
      new Map([
        [a, [b]],
        [b, [a]],
      ]),
    ),
  ).toEqual([['src/a.ts', 'src/b.ts']]);
});
