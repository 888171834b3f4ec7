// Build step: `libphonenumber-js/core` from the package's modern build (es6-modern/: native
// classes and spread) instead of its ES5 one (es6/), whose every file carries its own copy of
// Babel's class and typeof helpers: four copies in the counter's first load, about 1 KB gzip.
// The same code and the same metadata; only what the counter uses (parsePhoneNumberFromString)
// is re-exported. Types still come from the package as published.

import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const ID = '\0libphonenumber-js-core-modern';

export function modernPhonePlugin(): Plugin {
  const dir = path.dirname(createRequire(import.meta.url).resolve('libphonenumber-js/core'));
  const modern = path.join(dir, '..', 'es6-modern', 'parsePhoneNumber.js');
  return {
    name: 'modern-phone',
    enforce: 'pre',
    resolveId: (source) => (source === 'libphonenumber-js/core' ? ID : null),
    load: (id) =>
      id === ID
        ? `export { default as parsePhoneNumberFromString } from ${JSON.stringify(modern)};`
        : null,
  };
}
