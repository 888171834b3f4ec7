// Build step: V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136+) on the
// first line of the counter's lazy chunk. That chunk is fetched while the counter is idle, and
// a browser compiles each of its functions only at its first call otherwise: the first search
// after every load compiled the customer panel, the sale form and react-hook-form while it
// rendered them (~215 lazy compilations on the Enter -> panel path). With the hint the chunk
// compiles whole as it loads, off that path. Other browsers read a comment.

import type { Plugin } from 'vite';

const HINT = '//# allFunctionsCalledOnLoad\n';

/** Puts the hint on the first line of the chunks whose name is in `names`. */
export function compileHintPlugin(names: readonly string[]): Plugin {
  return {
    name: 'fidelidade:compile-hint',
    apply: 'build',
    // The file's name changes with its content.
    augmentChunkHash: (chunk) => (names.includes(chunk.name) ? HINT : undefined),
    generateBundle: {
      // After Vite's preload helper (`const __vite__mapDeps=…`), which it puts first: V8 reads
      // the hint only before the script's first token.
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && names.includes(chunk.name)) chunk.code = HINT + chunk.code;
        }
      },
    },
  };
}
