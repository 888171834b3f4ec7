import type { Logger } from 'pino';
import type { AppServerOptions } from './options';
import type { Sandbox } from '../sandbox/sandbox';
import { CHAIN_FIRST_ID } from '../sandbox/chain-seed';
import { listStores } from '../store';
import type { Store } from '../store';
import { addChainStore } from './domain/stores';

type UpstreamOptions = Pick<
  AppServerOptions,
  | 'mode'
  | 'upstream'
  | 'upstreamBaseUrl'
  | 'appToken'
  | 'accessToken'
  | 'establishmentId'
  | 'establishmentName'
  | 'pdvPassword'
>;

/**
 * The app server's upstream when it embeds the sandbox: called in-process, with the demo
 * tokens and name of the chosen establishment. Null when the sandbox has no such establishment.
 */
export function embeddedSandbox(sandbox: Sandbox, establishmentId: number): UpstreamOptions | null {
  const establishment = sandbox.establishments().find((e) => e.id === establishmentId);
  if (establishment === undefined) return null;
  return {
    mode: 'sandbox',
    upstream: sandbox.app,
    upstreamBaseUrl: 'http://sandbox.internal',
    appToken: establishment.appToken,
    accessToken: establishment.accessToken,
    establishmentId: establishment.id,
    establishmentName: establishment.nome,
    pdvPassword: establishment.senhaAtendente,
  };
}

/** The demo chain's default store: the sandbox's establishment 1. */
export const DEMO_CHAIN_DEFAULT = 1;
/** The demo chain's length without SANDBOX_STORES: establishment 1, then 3 and 4. */
export const DEMO_CHAIN_STORES = 3;

/**
 * The demo chain's other stores (the sandbox's establishments 3, 4, …, up to SANDBOX_STORES)
 * join the list of stores when missing, their demo tokens sealed as an operator's would be.
 */
export async function joinDemoChain(
  store: Store,
  secret: string,
  establishments: ReturnType<Sandbox['establishments']>,
  count: number,
  logger: Logger,
): Promise<void> {
  const listed = new Set((await listStores(store)).map((s) => s.establishmentId));
  for (const e of establishments) {
    if (e.id < CHAIN_FIRST_ID || e.id > CHAIN_FIRST_ID + count - 2 || listed.has(e.id)) continue;
    const change = await addChainStore(store, secret, DEMO_CHAIN_DEFAULT, {
      establishmentId: e.id,
      name: e.nome,
      accessToken: e.accessToken,
    });
    if (change === 'ok')
      logger.info({ estabelecimento: e.id }, `demo chain: store ${e.nome} added`);
  }
}
