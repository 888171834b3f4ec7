/**
 * The doctor's look at a chain's other stores (`npm run loja`): each store's access-token,
 * opened with APP_SECRET, is tried with one harmless read (a page of one reward), as the
 * default store's is in doctor-service.ts. Read only: the store is not opened as the server
 * does, and the sandbox's `app-secret` file is read, never created.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../app/config';
import { openStoreToken } from '../app/domain/stores';
import { createUpstreamClient } from '../app/upstream/client';
import type { Fetcher } from '../app/upstream/client';
import { inspectStores } from '../store';
import type { Check } from './doctor-service';

/** What one store's read needs: where the service is and how to reach it. */
export interface StoresReach {
  fetcher: Fetcher;
  baseUrl: string;
  appToken: string;
  timeoutMs: number;
}

function secretOf(config: Config, appDb: string): string | null {
  if (config.access.appSecret !== null) return config.access.appSecret;
  const file = path.join(path.dirname(appDb), 'app-secret');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

async function readOnce(reach: StoresReach, id: number, token: string): Promise<string | null> {
  const client = createUpstreamClient({
    fetcher: reach.fetcher,
    baseUrl: reach.baseUrl,
    appToken: reach.appToken,
    accessToken: token,
    establishmentId: id,
  });
  try {
    const res = await client.call(
      'recompensas',
      { itens_por_pagina: '1' },
      AbortSignal.timeout(reach.timeoutMs),
    );
    await res.body?.cancel().catch(() => undefined);
    if (res.ok) return null;
    if (res.status === 401 || res.status === 403) return `recusou o token (${res.status})`;
    if (res.status === 404) return 'não conhece o estabelecimento (404)';
    return `respondeu ${res.status}`;
  } catch (err) {
    return `não respondeu (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** One line per store of the list (none: null, nothing to say). */
export async function checkStores(
  config: Config,
  appDb: string,
  reach: StoresReach | null,
): Promise<Check | null> {
  const title = 'Lojas da rede';
  const stores = await inspectStores({
    databaseUrl: config.access.databaseUrl,
    sqlitePath: appDb,
  });
  if (stores === null || stores.length === 0) return null;
  const secret = secretOf(config, appDb);
  const lines: string[] = [];
  let failed = 0;
  for (const s of stores) {
    const token = secret === null ? null : openStoreToken(secret, s.establishmentId, s.tokenSealed);
    let problem: string | null;
    if (token === null) problem = 'o token guardado não abre com este APP_SECRET';
    else if (reach === null) problem = null;
    else problem = await readOnce(reach, s.establishmentId, token);
    if (problem !== null) failed++;
    lines.push(
      `loja ${s.establishmentId} "${s.name}": ${problem ?? (reach === null ? 'token guardado' : 'token aceito')}`,
    );
  }
  return {
    title,
    status: failed > 0 ? 'fail' : 'ok',
    detail: `${stores.length} loja(s) além da padrão: ${lines.join('; ')}.`,
    ...(failed > 0
      ? {
          fix: 'Troque o token da loja recusada com npm run loja -- token ID (o access-token do estabelecimento dela), ou remova-a com npm run loja -- remove ID.',
        }
      : {}),
  };
}
