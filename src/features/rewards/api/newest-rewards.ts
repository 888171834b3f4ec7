// A customer's newest rewards: what the counter shows after a posting that won some (the list
// is newest first, so the first `count` are the ones just won), with what handing them over
// needs ("Entregar agora").
import type { RewardRecord } from '@/api/schemas';
import { listRewards } from './list-rewards';

export async function newestRewards(id_cliente: number, count: number): Promise<RewardRecord[]> {
  const page = await listRewards({ id_cliente, itens_por_pagina: Math.min(count, 100) });
  return page.data.slice(0, count);
}
