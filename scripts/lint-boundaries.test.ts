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
      ['import-x/no-restricted-paths', 'no-restricted-imports', 'no-restricted-syntax'].includes(
        m.ruleId ?? '',
      ),
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

  test('server code never imports React, nor the browser app beyond src/api/wire.ts', async () => {
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
    const wire = await boundaryErrors(
      'server/sandbox/fixture.ts',
      "import { REWARD_STATUSES } from '../../src/api/wire';\nexport const x = REWARD_STATUSES;\n",
    );
    expect(wire).toEqual([]);
  });

  test('an e2e spec never sleeps: waitForTimeout fails the lint', async () => {
    const errors = await boundaryErrors(
      'e2e/fixture.spec.ts',
      "import { test } from '@playwright/test';\ntest('x', async ({ page }) => {\n  await page.waitForTimeout(500);\n});\n",
    );
    expect(errors).toEqual([expect.stringMatching(/No sleeping in e2e/)]);
  });
});
