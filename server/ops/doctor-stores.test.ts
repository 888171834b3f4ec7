// `npm run doctor` in live mode against a sandbox process standing in for the service (its
// establishments 1 and 2, each with its own token): every store of the chain's list is tried
// with one harmless read, and a store whose token the service refuses fails by name.
import path from 'node:path';
import { expect, test } from 'vitest';
import { addChainStore, setChainStoreToken } from '../app/domain/stores';
import { openStore } from '../store';
import { APP_SECRET_FOR_TESTS } from '../testing/processes';
import { sandboxProcess } from '../testing/sandbox-process';
import { runDoctor } from './doctor';

const sandbox = sandboxProcess('doctor-stores');
const { dir } = sandbox;

test('every store of the chain is read once with its own token', { timeout: 60_000 }, async () => {
  const appDb = path.join(dir, 'app.db');
  const env = {
    LOYALTY_BASE_URL: sandbox.url,
    LOYALTY_APP_TOKEN: 'demo-app-token',
    LOYALTY_ACCESS_TOKEN: 'demo-access-token-1',
    LOYALTY_ESTABLISHMENT_ID: '1',
    APP_SECRET: APP_SECRET_FOR_TESTS,
    APP_DB: appDb,
  };
  const store = await openStore({ sqlitePath: appDb });
  await addChainStore(store, APP_SECRET_FOR_TESTS, 1, {
    establishmentId: 2,
    name: 'Café Carência',
    accessToken: 'demo-access-token-2',
  });
  const seen: string[] = [];
  const fetcher = {
    fetch: (req: Request) => {
      seen.push(`${new URL(req.url).pathname} ${req.headers.get('access-token')}`);
      return fetch(req);
    },
  };
  const good = await runDoctor({ env, root: process.cwd(), fetcher });
  const stores = good.find((c) => c.title === 'Lojas da rede');
  expect(stores).toMatchObject({ status: 'ok' });
  expect(stores!.detail).toContain('loja 2 "Café Carência": token aceito');
  expect(seen).toContain('/api/v4/estabelecimentos/2/recompensas demo-access-token-2');

  // The store's token revoked at the service: that store fails, by name; the token never shows.
  await setChainStoreToken(store, APP_SECRET_FOR_TESTS, 1, 2, 'revoked-token-2');
  await store.close();
  const bad = await runDoctor({ env, root: process.cwd(), fetcher });
  const refused = bad.find((c) => c.title === 'Lojas da rede');
  expect(refused).toMatchObject({ status: 'fail' });
  expect(refused!.detail).toContain('loja 2 "Café Carência": recusou o token (401)');
  expect(JSON.stringify(bad)).not.toContain('revoked-token-2');
  expect(bad.find((c) => c.title === 'Serviço de fidelidade')?.status).toBe('ok');
  console.log(`[doctor] ${seen.length} reads; ${refused!.detail}`);
});
