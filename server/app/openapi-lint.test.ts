// The PDV's OpenAPI document (/api/integracao/openapi.json) as a PDV vendor's tools read it:
// linted by Redocly's own engine with its recommended rules (what `redocly lint` runs), with
// not one problem, not even a warning; every operation named by a stable operationId (the
// method names of a generated client); `servers` the PUBLIC_ORIGIN terminals open.
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterEach, expect, test } from 'vitest';
import { createJournalStore, openStore } from '../store';
import { makeApp } from '../testing/app-harness';
import { openApiDocument } from './http/integracao/openapi';
import { embeddedPostings } from './testing/embedded-postings';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

type Doc = {
  info: { license?: { name: string } };
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId?: string }>>;
};

/** Redocly's recommended ruleset over `doc`: each problem as `severity rule: message @ where`. */
async function lint(doc: object): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems: NormalizedProblem[] = await lintFromString({
    source: JSON.stringify(doc, null, 2),
    absoluteRef: '/openapi.json',
    config,
  });
  return problems.map(
    (p) =>
      `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location.map((l) => l.pointer ?? '').join(', ')}`,
  );
}

/** The document as the app server answers it (with its PDV routes: a postings journal). */
const fetchDocument = async (url: string, publicOrigin: string | null) => {
  const store = await openStore({ sqlitePath: ':memory:' });
  closers.push(() => store.close());
  const { upstream, service } = await embeddedPostings(closers, {
    store: createJournalStore(store),
  });
  const { app } = makeApp({ ...upstream, postings: service, store, publicOrigin }, null);
  const res = await app.request(url);
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
};

test('the OpenAPI document passes Redocly’s recommended rules with no error and no warning', async () => {
  const doc = await fetchDocument('http://127.0.0.1:4173/api/integracao/openapi.json', null);
  const problems = await lint(doc);
  console.log(`openapi lint (recommended): ${problems.length} problems`, problems);
  expect(problems).toEqual([]);
  expect(doc.info.license?.name).toBeTruthy();
});

test('the linter does count a document’s warnings (a document with no operationId fails)', async () => {
  const doc = openApiDocument('http://127.0.0.1:4173') as Doc;
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) delete op.operationId;
  }
  const problems = await lint(doc);
  expect(problems.filter((p) => p.startsWith('warn operation-operationId:'))).toHaveLength(3);
});

test('every operation has its stable operationId, the names a generated client uses', async () => {
  const doc = await fetchDocument('http://127.0.0.1:4173/api/integracao/openapi.json', null);
  const ids = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`,
    ),
  );
  expect(ids.sort()).toEqual([
    'GET /api/integracao/vendas/{id_venda} consultarVenda',
    'POST /api/integracao/vendas criarVenda',
    'POST /api/integracao/vendas/{id_venda}/cancelar cancelarVenda',
  ]);
});

test('servers is PUBLIC_ORIGIN when set, else the origin the document was asked at', async () => {
  const publicOrigin = 'https://pdv.loja.com.br';
  const behindProxy = await fetchDocument(
    `${publicOrigin}/api/integracao/openapi.json`,
    publicOrigin,
  );
  expect(behindProxy.servers).toEqual([{ url: publicOrigin }]);
  const local = await fetchDocument('http://127.0.0.1:4173/api/integracao/openapi.json', null);
  expect(local.servers).toEqual([{ url: 'http://127.0.0.1:4173' }]);
});
