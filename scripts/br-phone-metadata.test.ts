// The committed Brazil-only metadata must equal what the generator produces from the
// installed libphonenumber-js. After an upgrade: node scripts/br-phone-metadata.mjs
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { loadSource, OUTPUT, reduceToBrazil, renderBrazilMetadata } from './br-phone-metadata.mjs';

test('committed phone-metadata.br.json is up to date with libphonenumber-js', () => {
  // Compared as data, so reformatting the file (prettier) does not matter; content does.
  expect(JSON.parse(readFileSync(OUTPUT, 'utf8'))).toEqual(reduceToBrazil(loadSource()));
});

test('the reduced metadata holds Brazil only', () => {
  const reduced = JSON.parse(renderBrazilMetadata()) as Record<string, unknown>;
  expect(reduced.country_calling_codes).toEqual({ 55: ['BR'] });
  expect(Object.keys(reduced.countries as object)).toEqual(['BR']);
  expect(reduced.nonGeographic).toEqual({});
  expect(typeof reduced.version).toBe('number');
});

test('reduceToBrazil refuses metadata without BR', () => {
  expect(() => reduceToBrazil({ version: 4, countries: {} })).toThrow(/BR/);
});
