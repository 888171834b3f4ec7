import { defineConfig } from 'vite';

// The app server compiled for production (`npm start`): server/main.ts and what it imports,
// bundled into dist-server/ as plain JavaScript for Node; packages stay in node_modules
// (better-sqlite3 is native, pino starts workers). `npm run serve` still runs the sources
// through tsx for development.
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'server/main.ts',
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
