// The previous release, built from git beside this checkout, so that `npm run bench` measures
// it in the same run as this build and interleaved with it (machine noise hits both alike).
//
// Which commit: `--baseline=<git ref>`, or by default
// - on a branch (HEAD not on main): where it left main (`git merge-base HEAD main`), the
//   release the branch would replace;
// - on main (or with no main): the first parent of the newest commit on main's first-parent
//   line that changed the app (APP_PATHS), i.e. main before its last change to what runs.
// The commit's files come out of `git archive` into a temporary folder, which borrows this
// checkout's node_modules through a symlink (a release whose dependencies differ is built
// with today's), and are built with that commit's own `npm run build` and `npm run
// build:server`. The bench then starts it as it starts this build (server-process.ts).

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/** What a release runs: a change under these paths is a change of the app. */
export const APP_PATHS = [
  'src',
  'server',
  'public',
  'index.html',
  'scripts',
  'vite.config.ts',
  'vite.server.config.ts',
  'package-lock.json',
];

export interface Baseline {
  /** As asked (`--baseline=…`), or how the default was chosen. */
  ref: string;
  sha: string;
  /** "abc1234 Subject of the commit". */
  describe: string;
  /** The built checkout: dist/, dist-ssr/, dist-server/. */
  root: string;
}

function git(root: string, args: readonly string[]): string {
  const r = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

function tryGit(root: string, args: readonly string[]): string | null {
  try {
    return git(root, args);
  } catch {
    return null;
  }
}

/** The commit `--baseline` names, or the default described above. */
export function resolveBaseline(root: string, asked?: string): { ref: string; sha: string } {
  if (asked !== undefined) {
    const sha = tryGit(root, ['rev-parse', '--verify', '--quiet', `${asked}^{commit}`]);
    if (sha === null) throw new Error(`--baseline=${asked}: not a commit of this repository`);
    return { ref: asked, sha };
  }
  const head = git(root, ['rev-parse', 'HEAD']);
  const main = ['main', 'origin/main'].find(
    (b) => tryGit(root, ['rev-parse', '--verify', '--quiet', `${b}^{commit}`]) !== null,
  );
  if (main !== undefined) {
    const base = tryGit(root, ['merge-base', 'HEAD', main]);
    if (base !== null && base !== head) return { ref: `merge-base HEAD ${main}`, sha: base };
  }
  const changed = git(root, [
    'log',
    '--first-parent',
    '-1',
    '--format=%H',
    'HEAD',
    '--',
    ...APP_PATHS,
  ]);
  const before =
    changed === '' ? null : tryGit(root, ['rev-parse', '--verify', '--quiet', `${changed}^1`]);
  if (before === null)
    throw new Error('no earlier release in git to compare with (--baseline=none)');
  return { ref: `${changed.slice(0, 7)}^1 (main before its last change to the app)`, sha: before };
}

/** Runs `command` in `cwd`; rejects with the end of its output when it fails. */
function run(command: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d: Buffer) => {
      out = (out + d.toString()).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} in ${cwd} exited ${code}:\n${out}`)),
    );
  });
}

/**
 * The commit's files in `dir` (created), built. `dir` is left for the caller to remove (the
 * node_modules symlink is removed with it, never what it points to).
 */
export async function buildBaseline(
  root: string,
  chosen: { ref: string; sha: string },
  dir: string,
): Promise<Baseline> {
  mkdirSync(dir, { recursive: true });
  await new Promise<void>((resolve, reject) => {
    const archive = spawn('git', ['-C', root, 'archive', '--format=tar', chosen.sha], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tar = spawn('tar', ['-x', '-C', dir], { stdio: ['pipe', 'inherit', 'inherit'] });
    archive.stdout.pipe(tar.stdin);
    archive.once('error', reject);
    tar.once('error', reject);
    tar.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`git archive ${chosen.sha} | tar: ${code}`)),
    );
  });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await run('npm', ['run', 'build'], dir);
  await run('npm', ['run', 'build:server'], dir);
  return {
    ...chosen,
    describe: git(root, ['log', '-1', '--format=%h %s', chosen.sha]),
    root: dir,
  };
}
