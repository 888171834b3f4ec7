// Generates src/lib/phone-metadata.br.json: libphonenumber-js metadata reduced to Brazil.
//
// Source: `libphonenumber-js/metadata.mobile.json` rather than `metadata.min.json`. The two
// share the same layout; "mobile" additionally carries the mobile number-type pattern, which
// is what lets `getType()` tell a celular from a landline (the service wants a mobile phone).
// For Brazil alone that costs under 100 bytes.
//
// Run: node scripts/br-phone-metadata.mjs  (after upgrading libphonenumber-js; a unit test
// in src/lib/phone-metadata.test.ts fails when the committed file is out of date).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SOURCE = 'libphonenumber-js/metadata.mobile.json';
export const OUTPUT = fileURLToPath(new URL('../src/lib/phone-metadata.br.json', import.meta.url));

/** Reduces a full libphonenumber-js metadata object to Brazil (+55) only. */
export function reduceToBrazil(full) {
  const br = full.countries?.BR;
  if (!br) throw new Error('metadata has no BR entry');
  const out = {};
  // Keep every top-level key the format has (version, ...), narrowing the per-country ones.
  for (const key of Object.keys(full)) {
    if (key === 'country_calling_codes') out[key] = { 55: ['BR'] };
    else if (key === 'countries') out[key] = { BR: br };
    else if (key === 'nonGeographic') out[key] = {};
    else out[key] = full[key];
  }
  return out;
}

export function loadSource() {
  return createRequire(import.meta.url)(SOURCE);
}

/** The exact text written to OUTPUT (stable, so the test can compare strings). */
export function renderBrazilMetadata(full = loadSource()) {
  return JSON.stringify(reduceToBrazil(full)) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OUTPUT, renderBrazilMetadata());
  console.log(`wrote ${OUTPUT}`);
}
