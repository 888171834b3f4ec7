import { describe, expect, test, vi } from 'vitest';
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema';

describe('lazySchema', () => {
  test('builds the schema at its first use, once', () => {
    let built = 0;
    const Id = lazySchema(() => {
      built += 1;
      return z.looseObject({ id: z.int() });
    });
    expect(built).toBe(0);
    expect(Id.parse({ id: 3, extra: 'x' })).toEqual({ id: 3, extra: 'x' });
    expect(Id.safeParse({ id: 'três' }).success).toBe(false);
    expect(built).toBe(1);
  });

  test('stands for the schema inside other schemas and in instanceof checks', () => {
    const Entry = lazySchema(() => z.object({ pontos: z.int() }));
    const List = lazySchema(() => z.array(Entry));
    expect(Entry instanceof z.ZodMiniObject).toBe(true);
    expect(List.parse([{ pontos: 1 }, { pontos: 2 }])).toEqual([{ pontos: 1 }, { pontos: 2 }]);
    const bad = List.safeParse([{ pontos: 1 }, { pontos: 1.5 }]);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual([1, 'pontos']);
    expect(z.optional(Entry).parse(undefined)).toBeUndefined();
  });
});

describe('lazySchema in a browser', () => {
  test('is built when the browser is next idle', () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => idle.push(fn));
    try {
      let built = 0;
      const Name = lazySchema(() => {
        built += 1;
        return z.string();
      });
      expect(built).toBe(0);
      for (const fn of idle) fn();
      expect(built).toBe(1);
      expect(Name.parse('Ana')).toBe('Ana');
      expect(built).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
