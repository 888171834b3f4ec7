/**
 * A zod schema built at its first use instead of when its module is imported. The wire
 * schemas are imported by the entry, and building them all (zod builds each schema's
 * internals in its constructor) was a good part of the entry's first task: a page parses one
 * or two of them before the first search. The proxy stands for the schema everywhere: in
 * `parse`, inside other schemas, and in zod's `instanceof` checks.
 */
export function lazySchema<S extends object>(build: () => S): S {
  let schema: S | undefined;
  const real = (): S => (schema ??= build());
  return new Proxy(Object.create(null) as S, {
    get: (_target, key) => Reflect.get(real(), key),
    has: (_target, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
