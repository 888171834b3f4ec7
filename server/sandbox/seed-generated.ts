// The sandbox's generated customers: realistic names, E.164 mobiles and valid CPFs, with
// purchases spread over the year before creation. Every draw comes from the seed's PRNG, in a
// fixed order, so the same creation day always gives the same data. The names, places and
// products drawn from are data, in `seed-vocabulary.json`.

import { DAY_MS } from '#contract/rules/time';
import type { CustomerInput, ItemInput } from '#contract/rules/validation';
import { cpfCheckDigits } from './rules/cpf';
import type { PostingResult } from './posting';
import type { Store } from './store';
import vocabulary from './seed-vocabulary.json';

/** Where a generated customer lives: the mobile's area code, the city, its streets. */
interface Place {
  ddd: string;
  cidade: string;
  uf: string;
  bairros: string[];
  ruas: string[];
  cep: string;
}

// The words the generator draws from, in a fixed order (the PRNG picks by index). JSON types
// a pair as an array of either member's type: the pairs are cast to what they are there.
type Pair<A, B> = readonly [A, B];
const FIRST_NAMES = vocabulary.firstNames as unknown as readonly Pair<string, 'M' | 'F'>[];
const SURNAMES: readonly string[] = vocabulary.surnames;
const PLACES: readonly Place[] = vocabulary.places;
const PRODUCTS = vocabulary.products as unknown as readonly Pair<string, number>[];
const SODAS = vocabulary.sodas as unknown as readonly Pair<string, number>[];

function stripAccents(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

export interface SeedEvent {
  atMs: number;
  run: () => void;
}

export interface GeneratedSeed {
  count: number;
  rand: () => number;
  store: Store;
  /** The instant `daysAgo` days before creation, at `hour`:`minute` local time. */
  at: (daysAgo: number, hour: number, minute: number) => number;
  post: (atMs: number, cliente: CustomerInput, valor: number, itens?: ItemInput[]) => PostingResult;
  /** The documented customers, whose phones and CPFs are taken. */
  known: readonly { celular: string; cpf: string }[];
  /** Rewards outside the rules that some purchases also win. */
  extraRewards: readonly number[];
}

/** The generated customers' registrations and purchases, to be replayed in time order. */
export function generatedCustomerEvents({
  count: GENERATED_CUSTOMERS,
  rand,
  store,
  at,
  post,
  known,
  extraRewards,
}: GeneratedSeed): SeedEvent[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const between = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

  const usedPhones = new Set<string>(known.map((c) => c.celular));
  const usedCpfs = new Set<string>(known.map((c) => c.cpf));
  const events: SeedEvent[] = [];

  for (let i = 0; i < GENERATED_CUSTOMERS; i++) {
    const [first, genero] = pick(FIRST_NAMES);
    const nome = `${first} ${pick(SURNAMES)} ${pick(SURNAMES)}`;
    const place = pick(PLACES);
    let celular: string;
    do {
      celular = `+55${place.ddd}9${between(6, 9)}${String(between(0, 9_999_999)).padStart(7, '0')}`;
    } while (usedPhones.has(celular));
    usedPhones.add(celular);
    let cpf: string;
    do {
      const nine = String(between(100_000_000, 999_999_999));
      cpf = nine + cpfCheckDigits(nine);
    } while (usedCpfs.has(cpf) || /^(\d)\1{10}$/.test(cpf));
    usedCpfs.add(cpf);

    const full = rand() < 0.6;
    const [firstWord = '', ...rest] = stripAccents(nome).toLowerCase().split(' ');
    const cliente: CustomerInput = {
      celular,
      cpf,
      nome,
      email:
        rand() < 0.8
          ? `${firstWord}.${rest.at(-1) ?? 'cliente'}${between(1, 99)}@exemplo.com.br`
          : undefined,
      genero: rand() < 0.85 ? genero : undefined,
      data_nascimento:
        rand() < 0.7
          ? `${between(1950, 2005)}-${String(between(1, 12)).padStart(2, '0')}-${String(between(1, 28)).padStart(2, '0')}`
          : undefined,
      cep: full ? `${place.cep}${String(between(0, 999)).padStart(3, '0')}` : undefined,
      endereco: full ? `${pick(place.ruas)}, ${between(10, 2500)}` : undefined,
      bairro: full ? pick(place.bairros) : undefined,
      cidade: full || rand() < 0.5 ? place.cidade : undefined,
      estado: full ? place.uf : undefined,
    };

    const purchases = between(1, 7);
    const days = Array.from({ length: purchases }, () => between(1, 364));
    const registerFirst = rand() < 0.3;
    const firstDay = Math.max(...days);
    if (registerFirst) {
      const regAt = at(firstDay, between(8, 11), between(0, 59)) - between(1, 5) * DAY_MS;
      events.push({ atMs: regAt, run: () => void store.registerCustomer(1, cliente, regAt) });
    }
    for (const day of days) {
      const atMs = at(day, between(8, 21), between(0, 59));
      let valor = between(1_200, 18_000);
      const itens: ItemInput[] = [];
      if (rand() < 0.35) {
        const lines = between(1, 4);
        for (let l = 0; l < lines; l++) {
          const [descricao, price] = rand() < 0.45 ? pick(SODAS) : pick(PRODUCTS);
          const qtde = between(1, 3);
          itens.push({ descricao, qtde, valor: price * qtde });
        }
        valor = itens.reduce((s, it) => s + (it.valor ?? 0), 0);
      }
      const bonus = rand() < 0.22 ? pick(extraRewards) : null;
      events.push({
        atMs,
        run: () => {
          const r = post(atMs, cliente, valor, itens);
          if (bonus !== null) store.grantReward(r.id_cliente, bonus, atMs + 60_000);
        },
      });
    }
  }
  return events;
}
