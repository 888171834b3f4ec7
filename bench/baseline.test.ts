// Which commit `npm run bench` measures as the previous release, in a real git repository: a
// wrong choice would compare this build with itself (every figure "no better") or with a
// release nobody ships.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeTempDir, type TempDir } from './tmp';
import { resolveBaseline } from './baseline';

let tmp: TempDir;
let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
/** Commits a change of `file` and returns its sha. */
function commit(file: string, subject: string): string {
  mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  writeFileSync(path.join(repo, file), `${subject}\n`);
  git('add', '-A');
  git('commit', '-q', '-m', subject);
  return git('rev-parse', 'HEAD');
}

const sha = { first: '', second: '', docs: '', feature1: '', feature2: '' };

beforeAll(() => {
  tmp = makeTempDir('baseline-test-');
  repo = tmp.path;
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'bench@example.invalid');
  git('config', 'user.name', 'bench');
  sha.first = commit('src/app.tsx', 'first release');
  sha.second = commit('server/main.ts', 'second release');
  sha.docs = commit('docs/benchmarks.md', 'only the docs');
  git('checkout', '-q', '-b', 'feature');
  sha.feature1 = commit('src/app.tsx', 'a change on a branch');
  sha.feature2 = commit('src/other.tsx', 'another change on the branch');
  git('checkout', '-q', 'main');
});
afterAll(() => tmp.remove());

test('on a branch: where it left main, however many commits it has', () => {
  git('checkout', '-q', 'feature');
  expect(resolveBaseline(repo)).toEqual({ ref: 'merge-base HEAD main', sha: sha.docs });
  git('checkout', '-q', 'main');
});

test('on main: main before its last change to the app, past commits that changed none', () => {
  expect(resolveBaseline(repo).sha).toBe(sha.first);
  // Merged (without fast-forward): the release before the merge.
  git('merge', '-q', '--no-ff', '-m', 'merge the branch', 'feature');
  expect(resolveBaseline(repo).sha).toBe(sha.docs);
  git('reset', '-q', '--hard', sha.docs);
});

test('--baseline names any commit; a name that is none is refused', () => {
  expect(resolveBaseline(repo, 'HEAD~2')).toEqual({ ref: 'HEAD~2', sha: sha.first });
  expect(() => resolveBaseline(repo, 'no-such-ref')).toThrow(/not a commit/);
});

test('with no earlier change of the app there is nothing to compare with', () => {
  git('checkout', '-q', '--orphan', 'lonely');
  git('rm', '-q', '-rf', '.');
  commit('src/app.tsx', 'the only release');
  expect(() => resolveBaseline(repo)).toThrow(/no earlier release/);
  git('checkout', '-q', '-f', 'main');
});
