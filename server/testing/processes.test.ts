import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a child tied with reapOnExit does not outlive the test process that forgot to stop it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reap-'));
  try {
    const script = path.join(dir, 'parent.ts');
    writeFileSync(
      script,
      `import { spawn } from 'node:child_process';
import { reapOnExit } from ${JSON.stringify(path.join(here, 'processes.ts'))};
const tied = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
reapOnExit(tied);
console.log(tied.pid);
setTimeout(() => process.exit(0), 300); // exits without stopping it, as a timed-out test would
`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      cwd: path.resolve(here, '..', '..'),
    });
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    console.log(`reapOnExit: child ${pid} gone after its parent exited`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
