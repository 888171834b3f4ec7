import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { compileHintPlugin } from './scripts/compile-hint';
import { precompressPlugin } from './scripts/precompress';

// The SPA build. The app server (server/) serves dist/ and forwards /api/* upstream;
// in `npm run dev` Vite proxies /api to a running `npm run serve` on port 4173.
export default defineConfig({
  // compileHintPlugin: the counter's lazy chunk compiles whole as it loads (see the script).
  // precompressPlugin: dist/**/*.{br,gz} for the app server to send as they are.
  plugins: [react(), tailwindcss(), compileHintPlugin(['counter-heavy']), precompressPlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // Evergreen browsers only (counter PCs, kiosk): no modulepreload polyfill in the first load.
  build: {
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
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
});
