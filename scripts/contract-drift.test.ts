// The app server's answers and the browser cannot drift apart: both are typed by one contract
// (contract/api/). Shown by type-checking the real sources with one change made in
// memory: a field the server renames in its answer, or the contract renames, fails the
// type-check on the server's side and on the browser's.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const SERVER_ANSWERS = path.join(root, 'server/app/domain/journal/answers.ts');
const CONTRACT = path.join(root, 'contract/api/postings.ts');
const BROWSER_CSV = path.join(root, 'src/features/points/ledger-csv.ts');

const parsed = new Map<string, ts.SourceFile>();

/** Errors in `files` when the project of `tsconfig` is checked with `changes` applied. */
function errors(
  tsconfig: string,
  files: string[],
  changes: Record<string, (text: string) => string>,
): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, tsconfig),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => {
    const text = read(file);
    const change = changes[path.resolve(file)];
    return text !== undefined && change ? change(text) : text;
  };
  // Files left as they are are parsed once for every check (zod's and React's types are big).
  host.getSourceFile = (file, language, ...rest) => {
    if (changes[path.resolve(file)]) return getSourceFile(file, language, ...rest);
    const key = `${tsconfig}:${file}`;
    let source = parsed.get(key);
    if (source === undefined) {
      source = getSourceFile(file, language, ...rest);
      if (source !== undefined) parsed.set(key, source);
    }
    return source;
  };
  const program = ts.createProgram(files, config.options, host);
  // Only `files` are checked (what they use is resolved, not checked in turn): the errors
  // wanted are theirs, and checking every file they import took most of the time.
  return files
    .flatMap((file) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file)))
    .filter((d) => d.file !== undefined && files.includes(path.resolve(d.file.fileName)))
    .map(
      (d) =>
        `${path.relative(root, d.file!.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

const rename = (from: string, to: string) => (text: string) => {
  expect(text).toContain(from);
  return text.replace(from, to);
};

describe('one contract for the journal answers', { timeout: 120_000 }, () => {
  test('as they are, the server and the browser type-check', () => {
    expect(errors('tsconfig.node.json', [SERVER_ANSWERS], {})).toEqual([]);
    expect(errors('tsconfig.app.json', [BROWSER_CSV], {})).toEqual([]);
  });

  test('the server renaming a field of its answer fails its own type-check', () => {
    const found = errors('tsconfig.node.json', [SERVER_ANSWERS], {
      [SERVER_ANSWERS]: rename('valor_gasto: e.amount,', 'valor: e.amount,'),
    });
    expect(found.join('\n')).toMatch(/answers\.ts: .*valor/);
  });

  test('the contract renaming a field fails the server and the browser alike', () => {
    const change = { [CONTRACT]: rename('valor_gasto: z.number(),', 'valor: z.number(),') };
    expect(errors('tsconfig.node.json', [SERVER_ANSWERS], change).join('\n')).toMatch(
      /answers\.ts: .*valor_gasto/,
    );
    expect(errors('tsconfig.app.json', [BROWSER_CSV], change).join('\n')).toMatch(
      /ledger-csv\.ts: .*valor_gasto/,
    );
  });
});
