// An export the browser writes from data it has read already (the shift ledger, the rewards
// list) is recorded in the audit trail first (`POST /api/auditoria/exportacoes`): the file is
// written only once the server has the record, so no export of ours goes unrecorded. Imported
// with the CSV writers (lazily), never by a route's first load.
import * as z from 'zod/mini';
import type { ExportRecord } from '#contract/api/auditoria';
import { serverRequest } from './client';

const Recorded = z.looseObject({});

/** `loja`: the chain's store whose data a rede exported: recorded in that store's trail. */
export async function recordExport(record: ExportRecord, loja?: number): Promise<void> {
  await serverRequest({
    method: 'POST',
    path: '/api/auditoria/exportacoes',
    body: record,
    schema: Recorded,
    ...(loja === undefined ? {} : { headers: { 'x-loja': String(loja) } }),
  });
}
