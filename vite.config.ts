import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { compileHintPlugin } from './scripts/compile-hint.ts';
import { precompressPlugin } from './scripts/precompress.ts';

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

const spa: UserConfig = {
  // compileHintPlugin: the counter's lazy chunk compiles whole as it loads (see the script).
  // precompressPlugin: dist/**/*.{br,gz} for the app server to send as they are.
  plugins: [react(), tailwindcss(), compileHintPlugin(['counter-heavy']), precompressPlugin()],
  resolve: { alias },
  // Evergreen browsers only (counter PCs, kiosk): no modulepreload polyfill in the first load.
  build: {
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    modulePreload: {
      polyfill: false,
      // The counter's second chunk and the kiosk button are imported while the entry's first
      // task runs (to hydrate the painted counter): Vite's helper would add a
      // <link rel=modulepreload> for each of their imports there, 10-25 ms of DOM work on this
      // machine. The browser fetches their imports as it reads them instead. The manager's
      // dashboard, the audit trail, Vigilância and the reward hand-over's dialog too: their lists would grow the counter's
      // entry (a page opened on /painel preloads its chunk and imports from the server's
      // manifest anyway; the dialog's imports are mostly the counter's second chunk's).
      resolveDependencies: (file, deps, { hostType }) =>
        hostType === 'js' &&
        /(^|\/)(counter-heavy|send-to-kiosk|painel|auditoria|vigilancia|hand-over-dialog|pdv-counter)-/.test(
          file,
        )
          ? []
          : deps,
    },
    // dist/.vite/manifest.json: the app server preloads a lazy route's chunk on its page.
    manifest: true,
    // React and React DOM in a chunk of their own: its name (hash) stays the same from one
    // release of the app to the next, so a counter that loaded it once fetches only the app's
    // entry (41 KB gzip, against 105 KB with React inside it).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4173' } },
};

// The SPA build. The app server (server/) serves dist/ and forwards /api/* upstream;
// in `npm run dev` Vite proxies /api to a running `npm run serve` on port 4173.
// `vite build --ssr src/app/render-page.tsx` (part of `npm run build`) builds the server's
// render of a page's first view into dist-ssr/ instead: Node code, never served.
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        plugins: [react()],
        resolve: { alias },
        publicDir: false,
        build: {
          outDir: 'dist-ssr',
          target: 'node20',
          reportCompressedSize: false,
          // One file: the server imports each new build afresh by a versioned URL, and a
          // chunk importing the entry back would get a second copy of it (and of its contexts).
          rolldownOptions: { output: { codeSplitting: false } },
        },
        logLevel: 'warn',
      }
    : spa,
);
