// The README stays a guide that a store's IT person and a new developer read first: short,
// free of history (commit ids, clock times and dated runs belong to git), with working links
// into docs/, and every page of docs/ reachable from it. The docs pages' links are checked too.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const README = 'README.md';
const MAX_README_LINES = 260;

const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const docsPages = readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
  .sort();
/** The pages of the operations guide, one a task, reached from its index `docs/operations.md`. */
const operationsPages = readdirSync(path.join(root, 'docs', 'operations'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/operations/${f}`)
  .sort();

/** The text outside fenced code blocks (the prose and its inline code). */
function outsideFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The prose alone: outside fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return outsideFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** Targets of inline links `[text](target)` and reference definitions `[id]: target`. */
function linkTargets(markdown: string): string[] {
  const text = outsideFences(markdown).replace(/`[^`\n]*`/g, '');
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const defs = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...defs];
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = [...outsideFences(read(file)).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)];
  return new Set(headings.map((m) => slug(m[1]!)));
}

/** What is wrong with each relative link of `file`: a missing file or a missing anchor. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(read(file))) {
    if (isExternal(target)) continue;
    const [rawPath = '', anchor] = target.split('#');
    const linked = rawPath === '' ? file : path.posix.join(path.posix.dirname(file), rawPath);
    const decoded = decodeURIComponent(linked);
    if (!existsSync(path.join(root, decoded))) {
      problems.push(`${target}: no such file (${decoded})`);
      continue;
    }
    if (anchor !== undefined && anchor !== '' && decoded.endsWith('.md')) {
      if (statSync(path.join(root, decoded)).isFile()) {
        if (!anchorsOf(decoded).has(decodeURIComponent(anchor))) {
          problems.push(`${target}: no heading with that anchor in ${decoded}`);
        }
      }
    }
  }
  return problems;
}

/** Hex words of 7 to 40 characters with a digit and a letter: how git names a commit. */
const COMMIT_ID = /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g;
/** A time of day: 15:20 UTC, 9:05 GMT, 15:20:33Z. */
const CLOCK_TIME_UTC = /\b\d{1,2}:\d{2}(?::\d{2})?\s?(?:UTC|GMT|Z)\b/g;
/** A bare time of day or a date in the prose: the marks of a diary. */
const TIME_IN_PROSE = /\b\d{1,2}:\d{2}\b/g;
const DATE_IN_PROSE = /\b20\d{2}-\d{2}-\d{2}\b/g;

describe('the README is a guide', () => {
  const readme = read(README);

  test(`has at most ${MAX_README_LINES} lines`, () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  test('names no commit', () => {
    expect(readme.match(COMMIT_ID) ?? []).toEqual([]);
  });

  test('carries no clock time or dated run', () => {
    expect(readme.match(CLOCK_TIME_UTC) ?? []).toEqual([]);
    expect(prose(readme).match(TIME_IN_PROSE) ?? []).toEqual([]);
    expect(prose(readme).match(DATE_IN_PROSE) ?? []).toEqual([]);
  });

  test('links every page of docs/', () => {
    const linked = new Set(
      linkTargets(readme)
        .filter((t) => !isExternal(t))
        .map((t) => path.posix.normalize(decodeURIComponent(t.split('#')[0]!))),
    );
    expect(docsPages.length).toBeGreaterThan(0);
    expect(docsPages.filter((page) => !linked.has(page))).toEqual([]);
  });

  test.each([README, ...docsPages, ...operationsPages])(
    '%s: every relative link points to what exists',
    (file) => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );

  test('the operations index links every page of docs/operations/', () => {
    const index = 'docs/operations.md';
    const linked = new Set(
      linkTargets(read(index))
        .filter((t) => !isExternal(t))
        .map((t) => path.posix.join('docs', decodeURIComponent(t.split('#')[0]!))),
    );
    expect(operationsPages.length).toBeGreaterThan(0);
    expect(operationsPages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
