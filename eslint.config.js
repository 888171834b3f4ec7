import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = fileURLToPath(new URL('.', import.meta.url));
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The layers of ../shared/ARCHITECTURE.md, enforced. Paths are relative to the repository.
 * A feature imports `api/`, `components/`, `lib/` and itself, never another feature (what two
 * features share moves down to `components/` or `lib/`); only `app/` composes features.
 */
const boundaries = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: `A feature never imports another feature: move what both need to src/components or src/lib, or compose them in src/app.`,
  })),
  {
    target: ['./src/api', './src/components', './src/hooks', './src/lib'],
    from: ['./src/features', './src/app'],
    message:
      'api/, components/, hooks/ and lib/ sit below the features and the app: they never import them.',
  },
  {
    target: './src/lib',
    from: './src/api',
    message:
      'lib/ sits below api/: it never imports it. What both need of the wire comes from contract/ (#contract/wire).',
  },
  {
    target: './src',
    from: ['./server', './e2e', './bench', './scripts'],
    message: 'The browser app never imports server, test or tool code.',
  },
  {
    target: './server',
    from: './src',
    message:
      'Server code never imports the browser app: what both sides share is in contract/, imported as #contract/….',
  },
  {
    target: './contract',
    from: ['./src', './server', './e2e', './bench', './scripts'],
    message:
      'contract/ is what the browser and the server share: it never imports either (nor tests or tools).',
  },
];

/**
 * The layers of the app server (server/app): http → domain → (store, upstream), never back.
 * Production code only: a test may reach any layer it tests.
 */
const serverLayers = [
  {
    target: './server/app/http',
    from: ['./server/store', './server/app/upstream'],
    message:
      'http/ never reaches the store or the upstream client: it calls the domain (server/app/domain), which does.',
  },
  {
    target: './server/app/domain',
    from: [
      './server/app/http',
      './server/app/app.ts',
      './server/app/config.ts',
      './server/app/embedded.ts',
    ],
    message:
      'domain/ never imports http/ or the composition (app.ts, config.ts): it is called by them.',
  },
  {
    target: './server/app/upstream',
    from: ['./server/app/domain', './server/app/http', './server/store'],
    message:
      'upstream/ is the bottom layer: it imports neither the domain, nor http/, nor the store.',
  },
  {
    target: './server/store',
    from: './server/app',
    message: 'The store never imports the app server: the app server uses it.',
  },
  {
    // The composition that builds the sandbox is the one exception: server/main.ts and the
    // CLIs at server/'s top, server/app/embedded.ts (the upstream it makes of one) and the
    // doctor (server/ops/doctor-service.ts, which opens it as server/main.ts does).
    target: [
      './server/app/!(embedded).ts',
      './server/app/*/**',
      './server/store',
      './server/ops/!(doctor-service).ts',
    ],
    from: './server/sandbox',
    message:
      "The app server never imports the sandbox (a stand-in of the service, not a dependency of the product): the service's rules both apply are in contract/ (#contract/rules/…); only the composition (server/main.ts, the CLIs, server/app/embedded.ts, the doctor) builds the sandbox.",
  },
  {
    target: './server/sandbox',
    from: ['./server/app', './server/store', './server/ops'],
    message:
      "The sandbox stands in for the service: it never imports the app server, its store or ops/. What both apply is in contract/; the CLIs at server/'s top compose them.",
  },
  {
    target: ['./server/app', './server/store'],
    from: './server/ops',
    message:
      'ops/ (backup, restore, doctor) sits above the app server and its store: they never import it.',
  },
  {
    target: ['./server/app', './server/store', './server/sandbox', './server/main.ts'],
    from: './server/testing',
    message: 'Production code never imports test support (server/testing).',
  },
];

/**
 * A <dialog> opens through openModal() (src/lib/modal.ts), which calls showModal() and then
 * focuses the element marked `data-autofocus`. React's `autoFocus` runs before the effect that
 * calls showModal(), which then moves the focus to the dialog's first button ("Cancelar").
 */
const dialogRules = [
  {
    selector: "JSXElement[openingElement.name.name='dialog'] JSXAttribute[name.name='autoFocus']",
    message:
      'autoFocus in a <dialog> is undone by showModal(): mark the element data-autofocus; openModal() (src/lib/modal.ts) focuses it.',
  },
  {
    selector: "CallExpression[callee.property.name='showModal']",
    message:
      'Open a <dialog> with openModal() from src/lib/modal.ts: it calls showModal() and then focuses the element marked data-autofocus.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      // A test run's build of the servers (server/testing/server-build.ts).
      'dist-servers-*',
      'dist-ssr',
      'node_modules',
      'test-results',
      'playwright-report',
      'data',
      'reports',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript files are resolved when a rule reads an import (no-restricted-paths).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          alias: { '@': [`${root}src`] },
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaries }],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts', 'server/testing/**', 'server/app/testing/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: [...boundaries, ...serverLayers] },
      ],
    },
  },
  {
    // contract/ is pure TypeScript over zod: no React, no Node built-ins, no DOM library, no
    // other package (tsconfig.contract.json also type-checks it without DOM or Node types).
    files: ['contract/**/*.ts'],
    ignores: ['contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\.{1,2}/)',
              message:
                'contract/ imports zod and its own modules only: no React, no Node built-ins, no browser or server code.',
            },
          ],
        },
      ],
    },
  },
  // No import-x/no-cycle: scripts/import-cycles.test.ts checks src/, server/ and contract/ for
  // cycles, type imports included, in about 1 s; the rule cost about a fifth of the lint's CPU.
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Every modal dialog opens one way, so Enter confirms and Esc cancels in each.
      'no-restricted-syntax': ['error', ...dialogRules],
    },
  },
  {
    files: ['src/lib/modal.ts'],
    rules: { 'no-restricted-syntax': ['error', dialogRules[0]] },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(react|react-dom|@tanstack/react-query|react-hook-form)(/|$)',
              message: 'Server code never imports React or browser UI libraries.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='waitForTimeout']",
          message:
            'No sleeping in e2e: wait for what the user would see (expect(...).toBeVisible(), a response) or move the clock (page.clock).',
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts', 'scripts/**/*', '*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
);
