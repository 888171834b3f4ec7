// A page of a paged list (the audit trail's entries, Vigilância's alerts): its items, which
// page it is, how many pages and items the filters find in all. Pure: zod/mini.
import * as z from 'zod/mini';

/** `data` of a list route read by `?pagina=`: `itens` of `item`, plus the route's own fields. */
export function pageOf<Item extends z.core.SomeType, Extra extends z.core.$ZodLooseShape>(
  item: Item,
  extra: Extra,
) {
  return z.object({
    itens: z.array(item),
    pagina: z.int(),
    paginas: z.int(),
    total: z.int(),
    ...extra,
  });
}
