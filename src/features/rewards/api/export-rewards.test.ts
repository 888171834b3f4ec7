import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { configureApi } from '@/api/client';
import { jsonResponse, ok, rewardPageWire, rewardWire, stubFetch } from '@/testing/fixtures';
import { EXPORT_LIMIT, TooManyToExport, fetchAllRewards } from './export-rewards';

beforeEach(() => configureApi({ establishmentId: 1 }));
afterEach(() => vi.unstubAllGlobals());

/** The ids of page `page` (of `size`) of `total` records numbered total…1, newest first. */
const idsOnPage = (total: number, page: number, size: number) =>
  Array.from({ length: total }, (_, i) => total - i).slice((page - 1) * size, page * size);

/** The service's answer: page `page` holding the records `ids`, with the paging told. */
const pageAnswer = (page: number, ids: number[], paging: Record<string, unknown>) =>
  jsonResponse(
    200,
    ok(
      rewardPageWire({
        current_page: page,
        data: ids.map((id) => rewardWire({ id_premio_cliente: id })),
        ...paging,
      }),
    ),
  );

/** A service holding `total` records (ids total…1, newest first), paged as asked. */
function service(total: number, hold?: (page: number) => Promise<void>) {
  return stubFetch(async (raw) => {
    const q = new URL(raw, 'http://x').searchParams;
    const size = Number(q.get('itens_por_pagina'));
    const page = Number(q.get('page'));
    await hold?.(page);
    const ids = idsOnPage(total, page, size);
    return pageAnswer(page, ids, {
      per_page: size,
      last_page: Math.max(1, Math.ceil(total / size)),
      total,
      from: ids.length ? (page - 1) * size + 1 : null,
      to: ids.length ? (page - 1) * size + ids.length : null,
    });
  });
}

test('reads every page at 100 a page, in order, reporting progress', async () => {
  const fetchMock = service(250);
  const progress: string[] = [];
  const records = await fetchAllRewards(
    { status: 'resgatado', itens_por_pagina: 15, page: 4 },
    { onProgress: (p) => progress.push(`${p.loaded}/${p.total}`) },
  );
  expect(records.map((r) => r.id_premio_cliente)).toEqual(
    Array.from({ length: 250 }, (_, i) => 250 - i),
  );
  expect(progress).toEqual(['100/250', '200/250', '250/250']);
  const sent = fetchMock.mock.calls.map(([u]) =>
    Object.fromEntries(new URL(String(u), 'http://x').searchParams),
  );
  expect(sent).toEqual(
    [1, 2, 3].map((page) => ({ status: 'resgatado', itens_por_pagina: '100', page: String(page) })),
  );
});

test('no match: one request, no records', async () => {
  const fetchMock = service(0);
  expect(await fetchAllRewards({})).toEqual([]);
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test(`more than ${EXPORT_LIMIT} records: stops after the first page and says how many`, async () => {
  const fetchMock = service(EXPORT_LIMIT + 1);
  const error = await fetchAllRewards({}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TooManyToExport);
  expect((error as TooManyToExport).total).toBe(EXPORT_LIMIT + 1);
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test(`exactly ${EXPORT_LIMIT} records are exported`, async () => {
  service(EXPORT_LIMIT);
  expect(await fetchAllRewards({})).toHaveLength(EXPORT_LIMIT);
});

test('a record pushed onto the next page by a new reward is kept once', async () => {
  let total = 150;
  stubFetch((raw) => {
    const page = Number(new URL(raw, 'http://x').searchParams.get('page'));
    const ids = idsOnPage(total, page, 100);
    if (page === 1) total = 151; // a reward won between the two pages
    return pageAnswer(page, ids, { last_page: 2, total });
  });
  const ids = (await fetchAllRewards({})).map((r) => r.id_premio_cliente);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toHaveLength(150);
});

test('aborting stops at once: no further page is requested', async () => {
  const controller = new AbortController();
  let reached: () => void = () => {};
  const onSecond = new Promise<void>((r) => (reached = r));
  const fetchMock = service(500, async (page) => {
    if (page === 2) {
      reached();
      await new Promise(() => {}); // never answers by itself
    }
  });
  const run = fetchAllRewards({}, { signal: controller.signal });
  await onSecond;
  controller.abort();
  await expect(run).rejects.toHaveProperty('name', 'AbortError');
  expect(fetchMock).toHaveBeenCalledTimes(2);
  expect(fetchMock.mock.calls[1]![1]?.signal?.aborted).toBe(true);
});
