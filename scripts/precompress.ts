// Build step: writes `file.br` and `file.gz` beside every compressible file of dist/, so the
// app server (server/app/static.ts) answers with the smaller variant the browser accepts
// without compressing anything per request.

import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:html|m?js|css|json|map|webmanifest|svg|txt|xml|ico|wasm)$/i;
/** Below this a compressed answer saves less than its headers cost. */
const MIN_BYTES = 512;

export interface Precompressed {
  file: string;
  raw: number;
  br: number | null;
  gzip: number | null;
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(p)));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

/**
 * Compresses every compressible file under `dir` (brotli at its best quality, gzip level 9).
 * A variant is written only when it is smaller than the original; a stale one from an earlier
 * build is left out of the answer by static.ts (older than its original).
 */
export async function precompress(dir: string): Promise<Precompressed[]> {
  const files = (await walk(dir)).filter((f) => COMPRESSIBLE.test(f));
  return Promise.all(
    files.map(async (file): Promise<Precompressed> => {
      const raw = await readFile(file);
      const result: Precompressed = { file, raw: raw.byteLength, br: null, gzip: null };
      if (raw.byteLength < MIN_BYTES) return result;
      const [br, gzipped] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        }),
        gz(raw, { level: 9 }),
      ]);
      if (br.byteLength < raw.byteLength) {
        await writeFile(`${file}.br`, br);
        result.br = br.byteLength;
      }
      if (gzipped.byteLength < raw.byteLength) {
        await writeFile(`${file}.gz`, gzipped);
        result.gzip = gzipped.byteLength;
      }
      return result;
    }),
  );
}

/** Vite plugin: precompress the build output once it is written. */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'fidelidade:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      if ((await stat(outDir).catch(() => null))?.isDirectory()) await precompress(outDir);
    },
  };
}
