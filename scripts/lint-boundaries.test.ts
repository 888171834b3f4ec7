// The layer boundaries of eslint.config.js hold: ESLint, run as `npm run lint` runs it, refuses
// a forbidden import and lets the allowed ones through. Each case lints source text as if it
// were a file at the given path (the file need not exist; what it imports does).
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The boundary rules' messages for `code` placed at `path` (relative to the repository). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter((m) =>
      [
        'import-x/no-restricted-paths',
        'import-x/no-cycle',
        'no-restricted-imports',
        'no-restricted-syntax',
      ].includes(m.ruleId ?? ''),
    )
    .map((m) => m.message);
}

describe('lint boundaries', { timeout: 30_000 }, () => {
  test('a feature importing another feature fails, by alias or by relative path', async () => {
    const byAlias = await boundaryErrors(
      'src/features/points/fixture.ts',
      "import { useCustomer } from '@/features/customers/api/find-customer';\nexport const x = useCustomer;\n",
    );
    expect(byAlias).toEqual([expect.stringMatching(/A feature never imports another feature/)]);
    const byPath = await boundaryErrors(
      'src/features/rewards/components/fixture.ts',
      "import { SalePanel } from '../../points/components/sale-panel';\nexport const x = SalePanel;\n",
    );
    expect(byPath).toEqual([expect.stringMatching(/A feature never imports another feature/)]);
  });

  test('a feature may import its own files and the shared layers', async () => {
    const errors = await boundaryErrors(
      'src/features/points/fixture.ts',
      [
        "import { toPointsBody } from './sale-schema';",
        "import { customerFieldsSchema } from '@/components/customer-form/customer-schema';",
        "import { formatBRL } from '@/lib/money';",
        "import { apiRequest } from '@/api/client';",
        'export const x = [toPointsBody, customerFieldsSchema, formatBRL, apiRequest];',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  test('lib, api and components never import a feature or the app', async () => {
    const errors = await boundaryErrors(
      'src/lib/fixture.ts',
      "import { App } from '@/app/app';\nexport const x = App;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/sit below the features/)]);
  });

  test('the browser app never imports server code', async () => {
    const errors = await boundaryErrors(
      'src/api/fixture.ts',
      "import { openSandbox } from '../../server/sandbox/sandbox';\nexport const x = openSandbox;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/never imports server/)]);
  });

  test('server code never imports React, nor anything of the browser app', async () => {
    const react = await boundaryErrors(
      'server/app/fixture.ts',
      "import { useState } from 'react';\nexport const x = useState;\n",
    );
    expect(react).toEqual([expect.stringMatching(/never imports React/)]);
    const app = await boundaryErrors(
      'server/sandbox/fixture.ts',
      "import { formatBRL } from '../../src/lib/money';\nexport const x = formatBRL;\n",
    );
    expect(app).toEqual([expect.stringMatching(/Server code never imports the browser app/)]);
    const api = await boundaryErrors(
      'server/app/http/fixture.ts',
      "import { Customer } from '../../../src/api/schemas';\nexport const x = Customer;\n",
    );
    expect(api).toEqual([expect.stringMatching(/Server code never imports the browser app/)]);
  });

  test('the browser app and the server import the contract by name', async () => {
    const server = await boundaryErrors(
      'server/app/http/fixture.ts',
      [
        "import { Config } from '#contract/api/config';",
        "import { validatePontuar } from '#contract/rules/validation';",
        "import { REWARD_STATUSES } from '#contract/wire';",
        'export const x = [Config, validatePontuar, REWARD_STATUSES];',
        '',
      ].join('\n'),
    );
    expect(server).toEqual([]);
    const browser = await boundaryErrors(
      'src/lib/fixture.ts',
      "import { VALOR_GASTO_MAX } from '#contract/wire';\nexport const x = VALOR_GASTO_MAX;\n",
    );
    expect(browser).toEqual([]);
  });

  test('the contract never imports the browser app, the server, React or Node', async () => {
    const errors = await boundaryErrors(
      'contract/api/fixture.ts',
      [
        "import { formatBRL } from '../../src/lib/money';",
        "import { openStore } from '../../server/store';",
        "import { useState } from 'react';",
        "import { randomBytes } from 'node:crypto';",
        "import { readFileSync } from 'fs';",
        'export const x = [formatBRL, openStore, useState, randomBytes, readFileSync];',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringMatching(/contract\/ is what the browser and the server share/),
      expect.stringMatching(/contract\/ is what the browser and the server share/),
      expect.stringMatching(/contract\/ imports zod and its own modules only/),
      expect.stringMatching(/contract\/ imports zod and its own modules only/),
      expect.stringMatching(/contract\/ imports zod and its own modules only/),
    ]);
    const pure = await boundaryErrors(
      'contract/api/fixture.ts',
      [
        "import * as z from 'zod/mini';",
        "import { lazySchema } from '../lazy-schema';",
        "import { POSTING_STATES } from '../wire';",
        'export const x = [z, lazySchema, POSTING_STATES];',
        '',
      ].join('\n'),
    );
    expect(pure).toEqual([]);
  });

  test('the app server and its store never import the sandbox; only the composition builds it', async () => {
    const domain = await boundaryErrors(
      'server/app/domain/journal/fixture.ts',
      "import { countersFor } from '../../../sandbox/rules/rewards';\nexport const x = countersFor;\n",
    );
    expect(domain).toEqual([expect.stringMatching(/The app server never imports the sandbox/)]);
    const composition = await boundaryErrors(
      'server/app/fixture.ts',
      "import { openSandbox } from '../sandbox/sandbox';\nexport const x = openSandbox;\n",
    );
    expect(composition).toEqual([
      expect.stringMatching(/The app server never imports the sandbox/),
    ]);
    const store = await boundaryErrors(
      'server/store/fixture.ts',
      "import { openSandbox } from '../sandbox/sandbox';\nexport const x = openSandbox;\n",
    );
    expect(store).toEqual([expect.stringMatching(/The app server never imports the sandbox/)]);
    const embedded = await boundaryErrors(
      'server/app/embedded.ts',
      "import type { Sandbox } from '../sandbox/sandbox';\nexport type X = Sandbox;\n",
    );
    expect(embedded).toEqual([]);
  });

  test('the sandbox never imports the app server, its store or ops', async () => {
    const errors = await boundaryErrors(
      'server/sandbox/fixture.ts',
      [
        "import { withSecurityHeaders } from '../app/http/security';",
        "import { openStore } from '../store';",
        "import { backupSqlite } from '../ops/backup';",
        'export const x = [withSecurityHeaders, openStore, backupSqlite];',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringMatching(/The sandbox stands in for the service/),
      expect.stringMatching(/The sandbox stands in for the service/),
      expect.stringMatching(/The sandbox stands in for the service/),
    ]);
  });

  test('the app server and its store never import ops/', async () => {
    const config = await boundaryErrors(
      'server/app/config.ts',
      "import { readBackupEnv } from '../ops/backup';\nexport const x = readBackupEnv;\n",
    );
    expect(config).toEqual([expect.stringMatching(/ops\/ \(backup, restore, doctor\) sits above/)]);
    const store = await boundaryErrors(
      'server/store/fixture.ts',
      "import { backupSqlite } from '../ops/backup';\nexport const x = backupSqlite;\n",
    );
    expect(store).toEqual([expect.stringMatching(/ops\/ \(backup, restore, doctor\) sits above/)]);
  });

  test('lib/ never imports api/', async () => {
    const errors = await boundaryErrors(
      'src/lib/fixture.ts',
      "import { Customer } from '@/api/schemas';\nexport const x = Customer;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/lib\/ sits below api\//)]);
  });

  test('http/ reaching the store or the upstream client fails', async () => {
    const store = await boundaryErrors(
      'server/app/http/fixture.ts',
      "import { listTerminals } from '../../store';\nexport const x = listTerminals;\n",
    );
    expect(store).toEqual([expect.stringMatching(/http\/ never reaches the store/)]);
    const upstream = await boundaryErrors(
      'server/app/http/fixture.ts',
      "import { clientOf } from '../upstream/client';\nexport const x = clientOf;\n",
    );
    expect(upstream).toEqual([expect.stringMatching(/http\/ never reaches the store/)]);
  });

  test('domain/ importing http/ or the composition fails; the store and upstream are fine', async () => {
    const http = await boundaryErrors(
      'server/app/domain/fixture.ts',
      "import { fail } from '../http/envelope';\nexport const x = fail;\n",
    );
    expect(http).toEqual([expect.stringMatching(/domain\/ never imports http/)]);
    const root = await boundaryErrors(
      'server/app/domain/journal/fixture.ts',
      "import { readServerEnv } from '../../config';\nexport const x = readServerEnv;\n",
    );
    expect(root).toEqual([expect.stringMatching(/domain\/ never imports http/)]);
    const below = await boundaryErrors(
      'server/app/domain/fixture.ts',
      [
        "import { listTerminals } from '../../store';",
        "import { clientOf } from '../upstream/client';",
        'export const x = [listTerminals, clientOf];',
        '',
      ].join('\n'),
    );
    expect(below).toEqual([]);
  });

  test('upstream/ importing the domain, http/ or the store fails', async () => {
    const errors = await boundaryErrors(
      'server/app/upstream/fixture.ts',
      [
        "import { isSettled } from '../domain/journal/ledger';",
        "import { fail } from '../http/envelope';",
        "import { openStore } from '../../store';",
        'export const x = [isSettled, fail, openStore];',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringMatching(/upstream\/ is the bottom layer/),
      expect.stringMatching(/upstream\/ is the bottom layer/),
      expect.stringMatching(/upstream\/ is the bottom layer/),
    ]);
  });

  test('the store importing the app server, or production code importing test support, fails', async () => {
    const store = await boundaryErrors(
      'server/store/fixture.ts',
      "import { isSettled } from '../app/domain/journal/ledger';\nexport const x = isSettled;\n",
    );
    expect(store).toEqual([expect.stringMatching(/The store never imports the app server/)]);
    const testing = await boundaryErrors(
      'server/app/domain/fixture.ts',
      "import { startRelay } from '../../testing/relay';\nexport const x = startRelay;\n",
    );
    expect(testing).toEqual([expect.stringMatching(/never imports test support/)]);
  });

  test('an import cycle fails', async () => {
    // The contract's postings import the wire: the wire importing them back closes a cycle.
    const errors = await boundaryErrors(
      'contract/wire.ts',
      "import { Lancamento } from './api/postings';\nexport const x = Lancamento;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/Dependency cycle/)]);
  });

  test('an e2e spec never sleeps: waitForTimeout fails the lint', async () => {
    const errors = await boundaryErrors(
      'e2e/fixture.spec.ts',
      "import { test } from '@playwright/test';\ntest('x', async ({ page }) => {\n  await page.waitForTimeout(500);\n});\n",
    );
    expect(errors).toEqual([expect.stringMatching(/No sleeping in e2e/)]);
  });

  test('a dialog opened by showModal() or focused by autoFocus fails; openModal() passes', async () => {
    const wrong = await boundaryErrors(
      'src/features/points/components/fixture.tsx',
      [
        'export const open = (d: HTMLDialogElement) => d.showModal();',
        'export const X = () => (',
        '  <dialog>',
        '    <button autoFocus>Entregar</button>',
        '  </dialog>',
        ');',
        '',
      ].join('\n'),
    );
    expect(wrong).toEqual([
      expect.stringMatching(/Open a <dialog> with openModal\(\)/),
      expect.stringMatching(/autoFocus in a <dialog> is undone by showModal\(\)/),
    ]);
    const right = await boundaryErrors(
      'src/features/points/components/fixture.tsx',
      [
        "import { openModal } from '@/lib/modal';",
        'export const open = (d: HTMLDialogElement) => openModal(d);',
        'export const X = () => (',
        '  <dialog>',
        '    <button data-autofocus>Entregar</button>',
        '  </dialog>',
        ');',
        '',
      ].join('\n'),
    );
    expect(right).toEqual([]);
  });
});
