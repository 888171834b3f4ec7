import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

/** Component tests that replace a module with vi.mock: each runs in a fresh module graph. */
const MOCKS_MODULES = ['src/features/points/use-posting-load.test.tsx'];

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', 'json'],
    outputFile: { json: 'reports/unit.json' },
    // Two files at once even on two cores (Vitest's default there is one): many server tests
    // wait on child processes, PostgreSQL and sockets rather than the CPU.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // Store tests start PostgreSQL and spawn processes; at load 13 one took over 5 s.
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: MOCKS_MODULES,
          // The component tests share one jsdom and one module graph per worker: setting up
          // jsdom and importing React for each of 35 files took 43 s of the run, 13 s without
          // (the files pass in any order: checked with --sequence.shuffle). A file that
          // replaces a module (vi.mock) would leak it into the others: those run isolated.
          isolate: false,
          environment: 'jsdom',
          setupFiles: ['src/test-setup.ts'],
          // Typing tests drive user-event key by key through jsdom: ~1 s on a quiet machine,
          // over 5 s when other suites load both cores (they passed alone at load 35 but
          // timed out). Behaviour is asserted by the tests, not their speed.
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web-isolated',
          include: MOCKS_MODULES,
          environment: 'jsdom',
          setupFiles: ['src/test-setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
