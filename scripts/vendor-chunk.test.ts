import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { build, type Plugin } from 'vite';

// React and React DOM live in a chunk of their own (vite.config.ts) so that a release of the
// app does not make every counter download them again: the app's entry changes, their chunk
// keeps its name (and the browser's immutable cached copy).

const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'vendor-chunk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A release that changes one line of the app: a word of the search's wait message. */
const release: Plugin = {
  name: 'test:one-word-release',
  transform(code, id) {
    if (!id.endsWith('lookup-notices.tsx')) return null;
    return { code: code.replace('Buscando cliente…', 'Buscando o cliente…'), map: null };
  },
};

async function buildApp(name: string, plugins: Plugin[]): Promise<Map<string, string>> {
  const outDir = path.join(dir, name);
  // Vitest runs with NODE_ENV=test, which would build React's development files.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root,
      configFile: path.join(root, 'vite.config.ts'),
      logLevel: 'silent',
      plugins,
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  // chunk name -> file name, for the JavaScript chunks
  const files = readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
  const byName = new Map(files.map((f) => [f.replace(/-[\w-]{8}\.js$/, ''), f]));
  expect([...byName.keys()]).toContain('react-dom');
  const read = (chunk: string) =>
    readFileSync(path.join(outDir, 'assets', byName.get(chunk) ?? '?'), 'utf8');
  expect(read('react-dom')).toContain('react.dev/errors'); // React DOM's own code is in it
  expect(read('react-dom')).not.toContain('Buscando'); // and no screen of the app
  expect(read('index')).not.toContain('react.dev/errors');
  return byName;
}

test('a release of the app changes its entry and leaves the React chunk as it was', async () => {
  const before = await buildApp('before', []);
  const after = await buildApp('after', [release]);
  expect(after.get('index')).not.toBe(before.get('index'));
  expect(after.get('react-dom')).toBe(before.get('react-dom'));
}, 120_000);
