import { configDefaults, defineConfig } from 'vitest/config';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { modernPhonePlugin } from './scripts/modern-phone.ts';

const src = fileURLToPath(new URL('./src', import.meta.url));
const alias = { '@': src };

/**
 * Component tests that replace a module (vi.mock / vi.doMock): found by reading the files, so
 * a new one can never join the shared module graph below by being forgotten here.
 */
const MOCKS_MODULES = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f))
  .filter((f) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(`${src}/${f}`, 'utf8')))
  .map((f) => `src/${f.replaceAll('\\', '/')}`);

/** What every component test project shares. */
const webTest = {
  environment: 'jsdom',
  setupFiles: ['src/testing/setup.ts'],
  // Typing tests drive user-event key by key through jsdom: about a second on a quiet machine,
  // several times that when other suites load both cores. Behaviour is asserted by the tests,
  // not their speed.
  testTimeout: 20_000,
};

export default defineConfig({
  // The app's libphonenumber-js build (vite.config.ts): the tests run the code that ships.
  plugins: [modernPhonePlugin()],
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
          include: [
            'server/**/*.test.ts',
            // What the browser and the server share: pure, so Node runs its tests.
            'contract/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
            // The page the app server paints, rendered in Node as the server does.
            'src/app/render-page.test.tsx',
          ],
          environment: 'node',
          // The app server, the sandbox and the CLIs the tests start, built once for the run.
          globalSetup: ['server/testing/global-setup.ts'],
          // Store tests start PostgreSQL and spawn processes: on a loaded machine, over 5 s.
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          ...webTest,
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...MOCKS_MODULES, 'src/app/render-page.test.tsx'],
          // The component tests share one jsdom and one module graph per worker: setting up
          // jsdom and importing React for each file would take most of the project's time (the
          // files pass in any order: checked with --sequence.shuffle). A file that replaces a
          // module would leak it into the others: those run isolated.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: { name: 'web-isolated', ...webTest, include: MOCKS_MODULES },
      },
    ],
  },
});
