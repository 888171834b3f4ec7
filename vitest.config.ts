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

/** The Node side's test files (the `server` projects below). */
const root = fileURLToPath(new URL('.', import.meta.url));
const SERVER_TESTS = [
  ...['server', 'contract', 'scripts', 'bench'].flatMap((dir) =>
    readdirSync(`${root}${dir}`, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.test\.ts$/.test(f))
      .map((f) => `${dir}/${f.replaceAll('\\', '/')}`),
  ),
  // The page the app server paints, rendered in Node as the server does.
  'src/app/render-page.test.tsx',
];

/**
 * Node-side test files that change their process for the files after them: a module replaced,
 * a global or an environment variable set, a V8 flag. Found by reading the files, so a new one
 * can never join the shared module graph of the `server` project by being forgotten here.
 */
const CHANGES_PROCESS =
  /\bvi\.(do)?[mM]ock\(|\bvi\.stub(Global|Env)\(|setFlagsFromString\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/;
const SERVER_ISOLATED = SERVER_TESTS.filter((f) =>
  CHANGES_PROCESS.test(readFileSync(`${root}${f}`, 'utf8')),
);

/** What both Node-side projects share. */
const serverTest = {
  environment: 'node',
  // Store tests start PostgreSQL and spawn processes: on a loaded machine, over 5 s.
  testTimeout: 20_000,
};

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
    // Three files at once on two cores (Vitest's default there is one): many server tests wait
    // on child processes, PostgreSQL, sockets and real time (a 30 s watch, a chain's 24 s of
    // load) rather than the CPU. The 16 longest server files took 190 s wall and 235 s of CPU
    // on two workers (62 % of two cores), 161 s and 242 s on three, all passing.
    maxWorkers: 3,
    // The app server, the sandbox and the CLIs the tests start, built once for the run.
    globalSetup: ['server/testing/global-setup.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          ...serverTest,
          include: SERVER_TESTS,
          exclude: [...configDefaults.exclude, ...SERVER_ISOLATED],
          // The files share one module graph per worker, as the component tests do: importing
          // the server's modules (Hono, Kysely, zod, pino, …) again for each file took about a
          // fifth of the project's time. A file that changes its process runs isolated.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: { name: 'server-isolated', ...serverTest, include: SERVER_ISOLATED },
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
