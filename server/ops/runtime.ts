/**
 * Which Node.js runs this process, and whether package.json's `engines` supports it: the server
 * logs it when it starts, `npm run doctor` reports it. `npm install` brings Node.js 24 (the
 * registry's `node` package, first on every npm script's PATH), so an unsupported runtime here
 * means the process was started another way: `/usr/bin/node dist-server/main.js`, say.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Runtime {
  /** `v24.21.0` */
  version: string;
  /** The binary: `…/node_modules/node/bin/node` when npm started it. */
  execPath: string;
  /** package.json's `engines.node`, e.g. `^24.11.0`. */
  engines: string;
  supported: boolean;
}

type Triple = [number, number, number];

function triple(text: string): Triple | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return m === null ? null : [Number(m[1]), Number(m[2]), Number(m[3])];
}

function atLeast(v: Triple, min: Triple): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return v[i]! > min[i]!;
  return true;
}

/**
 * Whether `version` is within `range`: alternatives joined by `||`, each `^X.Y.Z` (that major,
 * at least X.Y.Z) or `>=X.Y.Z`. Any other form throws, so a new `engines` cannot be misread.
 */
export function satisfies(version: string, range: string): boolean {
  const v = triple(version);
  if (v === null) throw new Error(`not a Node.js version: ${version}`);
  return range.split('||').some((part) => {
    const m = /^\s*(\^|>=)\s*(\d+\.\d+\.\d+)\s*$/.exec(part);
    const min = m === null ? null : triple(m[2]!);
    if (m === null || min === null) throw new Error(`unsupported engines range: ${part.trim()}`);
    return atLeast(v, min) && (m[1] === '>=' || v[0] === min[0]);
  });
}

/** package.json's `engines.node` under `root`. */
export function readEngines(root: string): string {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    engines?: { node?: string };
  };
  const range = pkg.engines?.node;
  if (range === undefined) throw new Error(`${root}/package.json has no engines.node`);
  return range;
}

/** This process's runtime against the project's `engines`. */
export function currentRuntime(
  root: string,
  proc: { version: string; execPath: string } = process,
): Runtime {
  const engines = readEngines(root);
  return {
    version: proc.version,
    execPath: proc.execPath,
    engines,
    supported: satisfies(proc.version, engines),
  };
}
