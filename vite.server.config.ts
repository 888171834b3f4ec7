import { defineConfig } from 'vite';

/**
 * Every Node entry point, for `--mode servers`: the tests build them once per run and start
 * the build instead of the sources through tsx (server/testing/server-build.ts).
 */
const ENTRIES = [
  'main',
  'sandbox-cli',
  'terminal-cli',
  'doctor-cli',
  'backup-cli',
  'loja-cli',
  'pdv-cli',
] as const;

// The app server compiled for production (`npm start`): server/main.ts and what it imports,
// bundled into dist-server/ as plain JavaScript for Node; packages stay in node_modules
// (better-sqlite3 is native, pino starts workers). `npm run serve` still runs the sources
// through tsx for development.
export default defineConfig(({ mode }) => {
  const servers = mode === 'servers';
  return {
    publicDir: false,
    build: {
      ssr: servers ? true : 'server/main.ts',
      outDir: 'dist-server',
      emptyOutDir: true,
      target: 'node20',
      sourcemap: !servers,
      minify: false,
      reportCompressedSize: false,
      // The tests' build keeps every chunk beside the entries, one folder below the root as
      // server/ is, so that a module that finds the root from its own URL finds it there too.
      ...(servers
        ? {
            rollupOptions: {
              input: Object.fromEntries(ENTRIES.map((name) => [name, `server/${name}.ts`])),
              output: { chunkFileNames: '[name]-[hash].js' },
            },
          }
        : {}),
    },
    logLevel: 'warn',
  };
});
