/**
 * A chain's stores from one deployment. The default store is the one configured as before
 * (LOYALTY_ESTABLISHMENT_ID + LOYALTY_ACCESS_TOKEN, or the sandbox's); the others live in the
 * app's store (`stores`), each access-token sealed with AES-256-GCM under a key derived from
 * APP_SECRET and bound to its establishment id (a sealed token copied onto another store does
 * not open). A token is opened only in memory, never logged or answered.
 *
 * Replicas read the list from the shared store, kept for `ttlMs`: a store added with
 * `npm run loja -- add` is served by every running replica within that time, no restart.
 */
import { deleteStore, insertStore, listStores, updateStoreToken } from '../../store';
import type { Store } from '../../store';
import { seal, sealKeyFrom, unseal } from './journal/sealed';
import type { SealKey } from './journal/sealed';

/** One store the deployment serves, its token opened. */
export interface ChainStore {
  establishmentId: number;
  name: string | null;
  accessToken: string;
  /** The configured one: terminals and records from before the chain are its. */
  isDefault: boolean;
}

const storeKey = (appSecret: string): SealKey => sealKeyFrom(appSecret, 'store access-token v1');
const bound = (establishmentId: number) => `store:${establishmentId}`;

export function sealStoreToken(appSecret: string, establishmentId: number, token: string): string {
  return seal(storeKey(appSecret), token, bound(establishmentId));
}

export function openStoreToken(
  appSecret: string,
  establishmentId: number,
  sealed: string,
): string | null {
  return unseal(storeKey(appSecret), sealed, bound(establishmentId));
}

/** A store's name: 1 to 60 characters, shown in the header. */
export function validStoreName(name: string): boolean {
  const n = name.trim();
  return n.length > 0 && n.length <= 60;
}

/** A token as the service issues it: printable, no spaces, at most 512 characters. */
export function validToken(token: string): boolean {
  return /^[\x21-\x7e]{1,512}$/.test(token);
}

export type StoreChange = 'ok' | 'exists' | 'unknown' | 'default';

export async function addChainStore(
  store: Store,
  appSecret: string,
  defaultId: number,
  input: { establishmentId: number; name: string; accessToken: string },
): Promise<StoreChange> {
  if (input.establishmentId === defaultId) return 'default';
  const added = await insertStore(store, {
    establishmentId: input.establishmentId,
    name: input.name.trim(),
    tokenSealed: sealStoreToken(appSecret, input.establishmentId, input.accessToken),
  });
  return added ? 'ok' : 'exists';
}

export async function setChainStoreToken(
  store: Store,
  appSecret: string,
  defaultId: number,
  establishmentId: number,
  accessToken: string,
): Promise<StoreChange> {
  if (establishmentId === defaultId) return 'default';
  const sealed = sealStoreToken(appSecret, establishmentId, accessToken);
  return (await updateStoreToken(store, establishmentId, sealed)) ? 'ok' : 'unknown';
}

export async function removeChainStore(
  store: Store,
  defaultId: number,
  establishmentId: number,
): Promise<StoreChange> {
  if (establishmentId === defaultId) return 'default';
  return (await deleteStore(store, establishmentId)) ? 'ok' : 'unknown';
}

export interface StoreDirectoryDeps {
  store: Store;
  appSecret: string;
  /** The configured store (its token from the environment, never stored). */
  defaultStore: Omit<ChainStore, 'isDefault'>;
  /** How long a read of the list is kept (default 5 s). */
  ttlMs?: number;
  /** A stored token that does not open (APP_SECRET changed): told once per store. */
  onUnreadable?: (establishmentId: number) => void;
}

/** The deployment's stores, read from the shared store and kept briefly. */
export function createStoreDirectory(deps: StoreDirectoryDeps) {
  const ttlMs = deps.ttlMs ?? 5_000;
  const defaultStore: ChainStore = { ...deps.defaultStore, isDefault: true };
  let kept: { at: number; stores: Map<number, ChainStore> } | null = null;
  let reading: Promise<Map<number, ChainStore>> | null = null;
  const warned = new Set<number>();

  async function read(): Promise<Map<number, ChainStore>> {
    const stores = new Map<number, ChainStore>([[defaultStore.establishmentId, defaultStore]]);
    for (const row of await listStores(deps.store)) {
      if (row.establishmentId === defaultStore.establishmentId) continue;
      const token = openStoreToken(deps.appSecret, row.establishmentId, row.tokenSealed);
      if (token === null) {
        if (!warned.has(row.establishmentId)) deps.onUnreadable?.(row.establishmentId);
        warned.add(row.establishmentId);
        continue;
      }
      stores.set(row.establishmentId, {
        establishmentId: row.establishmentId,
        name: row.name,
        accessToken: token,
        isDefault: false,
      });
    }
    kept = { at: deps.store.now(), stores };
    return stores;
  }

  /** The list, read again once `ttlMs` has passed (one read at a time). */
  async function current(): Promise<Map<number, ChainStore>> {
    const now = deps.store.now();
    if (kept !== null && now >= kept.at && now - kept.at < ttlMs) return kept.stores;
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  }

  return {
    defaultStore,
    /** Every store served now, the default one first. */
    async list(): Promise<ChainStore[]> {
      return [...(await current()).values()];
    },
    /** The store with this establishment id, or null when the deployment does not serve it. */
    async get(establishmentId: number): Promise<ChainStore | null> {
      if (establishmentId === defaultStore.establishmentId) return defaultStore;
      return (await current()).get(establishmentId) ?? null;
    },
    /** Forgets the kept list (this process changed it). */
    forget(): void {
      kept = null;
    },
  };
}

export type StoreDirectory = ReturnType<typeof createStoreDirectory>;
