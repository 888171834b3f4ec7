/**
 * A sandbox process (the service's stand-in, `npm run sandbox`) for a test file: started once
 * before its tests in a temporary folder of its own, stopped and the folder removed after them.
 * Call `sandboxProcess` at a test file's top level.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox } from './processes';
import type { RunningProcess } from './processes';

export interface SandboxProcess {
  /** The running sandbox's base URL (read inside a test or a hook). */
  readonly url: string;
  /** The file's temporary folder (the sandbox's database and anything else the tests write). */
  readonly dir: string;
}

/** `name` names the temporary folder (`<name>-XXXXXX`). */
export function sandboxProcess(name: string): SandboxProcess {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  let sandbox: RunningProcess | null = null;
  beforeAll(async () => {
    sandbox = await startSandbox(path.join(dir, 'sandbox.db'));
  }, 60_000);
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    get url() {
      if (sandbox === null) throw new Error('the sandbox process is not running');
      return sandbox.url;
    },
  };
}
