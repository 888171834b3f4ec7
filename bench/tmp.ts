// A private temporary folder for the benchmark's SQLite files, removed at the end.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempDir {
  path: string;
  /** A fresh file name inside the folder (the file itself is not created). */
  file(name: string): string;
  remove(): void;
}

export function makeTempDir(prefix: string): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  let n = 0;
  return {
    path: dir,
    file: (name) => path.join(dir, `${String(++n).padStart(2, '0')}-${name}`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
