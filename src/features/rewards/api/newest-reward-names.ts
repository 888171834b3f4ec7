// The names of a customer's newest rewards: what the counter shows after a posting that won
// some (the list is newest first, so the first `count` are the ones just won).
import { listRewards } from './list-rewards';

export async function newestRewardNames(id_cliente: number, count: number): Promise<string[]> {
  const page = await listRewards({ id_cliente, itens_por_pagina: Math.min(count, 100) });
  return page.data.slice(0, count).map((r) => r.nome);
}
