import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { build } from 'vite';
import { compileHintPlugin } from './compile-hint';

const dir = mkdtempSync(path.join(tmpdir(), 'compile-hint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds a page whose lazy chunk `heavy` itself loads a chunk with a dependency (so Vite puts
 * its preload helper first in `heavy`): each chunk's name → its file name and text. */
async function buildFixture(
  hinted: string[],
): Promise<Map<string, { file: string; text: string }>> {
  const src = path.join(dir, 'src');
  const files: Record<string, string> = {
    'index.html': '<!doctype html><script type="module" src="/main.js"></script>',
    'main.js': 'import("./heavy.js").then((m) => m.run());\nimport("./third.js");',
    'heavy.js': 'export const run = () => import("./other.js").then((m) => m.o);',
    'other.js': 'import { s } from "./shared.js";\nexport const o = s + 1;',
    'third.js': 'import { s } from "./shared.js";\nexport const t = s + 2;',
    'shared.js': 'export const s = globalThis.location ? 2 : 3;',
  };
  mkdirSync(src, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(src, name), text);
  const out = path.join(dir, `out-${hinted.join('-') || 'none'}`);
  await build({
    root: src,
    configFile: false,
    logLevel: 'silent',
    plugins: [compileHintPlugin(hinted)],
    build: { outDir: out, emptyOutDir: true },
  });
  const chunks = new Map<string, { file: string; text: string }>();
  for (const file of readdirSync(path.join(out, 'assets'))) {
    const text = readFileSync(path.join(out, 'assets', file), 'utf8');
    chunks.set(file.replace(/-[\w-]{8}\.js$/, ''), { file, text });
  }
  return chunks;
}

test('the hint is the first line of the named chunk only, and changes its file name', async () => {
  const plain = await buildFixture([]);
  const hinted = await buildFixture(['heavy']);
  expect([...hinted.keys()].sort()).toEqual(['heavy', 'index', 'other', 'shared', 'third']);
  const lines = hinted.get('heavy')?.text.split('\n') ?? [];
  expect(lines[0]).toBe('//# allFunctionsCalledOnLoad');
  // Vite's preload helper would otherwise come first (V8 reads the hint only before any code).
  expect(lines[1]).toMatch(/^const __vite__mapDeps=/);
  for (const [name, { text }] of hinted) {
    if (name !== 'heavy') expect(text).not.toContain('allFunctionsCalledOnLoad');
  }
  expect(plain.get('heavy')?.text).not.toContain('allFunctionsCalledOnLoad');
  // A browser holding the old file (cached as immutable) fetches the new one.
  expect(hinted.get('heavy')?.file).not.toBe(plain.get('heavy')?.file);
  expect(hinted.get('other')?.file).toBe(plain.get('other')?.file);
});
