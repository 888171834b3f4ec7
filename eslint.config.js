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
    target: './src',
    from: ['./server', './e2e', './bench', './scripts'],
    message: 'The browser app never imports server, test or tool code.',
  },
  {
    target: './server',
    from: './src',
    except: ['./api/wire.ts', './api/wire-fields.ts', './api/contract'],
    message:
      'Server code never imports the browser app; the wire constants both sides share live in src/api/wire.ts and src/api/wire-fields.ts, the app server API contract in src/api/contract/.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
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
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
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
