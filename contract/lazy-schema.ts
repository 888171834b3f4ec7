type IdleScheduler = (callback: () => void) => unknown;

/**
 * A zod schema built at its first use, or when the browser is next idle, instead of when its
 * module is imported. The wire and form schemas are imported by the entry and the counter's
 * second chunk, and building them all (zod builds each schema's internals in its
 * constructor) was a good part of those chunks' evaluation, a task that holds the page
 * between its first paint and its first input. Built when idle, each in a task of its own,
 * they are ready before the first search instead of being built on its path. The proxy
 * stands for the schema everywhere: in `parse`, inside other schemas, and in zod's
 * `instanceof` checks.
 */
export function lazySchema<S extends object>(build: () => S): S {
  let schema: S | undefined;
  const real = (): S => (schema ??= build());
  // Not in Node (the server's render, the tests): built at first use there. Read off the
  // global object, as the contract is typed without the DOM.
  (globalThis as { requestIdleCallback?: IdleScheduler }).requestIdleCallback?.(() => void real());
  return new Proxy(Object.create(null) as S, {
    get: (_target, key) => Reflect.get(real(), key),
    has: (_target, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/**
 * Builds a `lazySchema` now, if it is not built yet: a page that parses with it next can build
 * it in a task of its own first (the two together are a long task on a slow phone).
 */
export const buildSchema = (schema: object): void => void Reflect.has(schema, '_zod');
