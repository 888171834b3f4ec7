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

/** Source that imports each of `imports` (one name each) and uses them all. */
function importing(...imports: string[]): string {
  const names = imports.map((line) => /^import (?:\* as )?\{? ?(\w+)/.exec(line)![1]!);
  const used = names.length === 1 ? names[0]! : `[${names.join(', ')}]`;
  return [...imports, `export const x = ${used};`, ''].join('\n');
}

/**
 * A file linted at `at` with `code`, and the boundary messages it gets, in order (none: the
 * file passes).
 */
interface Fixture {
  at: string;
  code: string;
  refused: RegExp[];
}

/** Each rule's fixtures: the forbidden imports it refuses and the allowed ones it lets by. */
const cases: [title: string, fixtures: Fixture[]][] = [
  [
    'a feature importing another feature fails, by alias or by relative path',
    [
      {
        at: 'src/features/points/fixture.ts',
        code: importing("import { useCustomer } from '@/features/customers/api/find-customer';"),
        refused: [/A feature never imports another feature/],
      },
      {
        at: 'src/features/rewards/components/fixture.ts',
        code: importing("import { SalePanel } from '../../points/components/sale-panel';"),
        refused: [/A feature never imports another feature/],
      },
    ],
  ],
  [
    'a feature may import its own files and the shared layers',
    [
      {
        at: 'src/features/points/fixture.ts',
        code: importing(
          "import { toPointsBody } from './sale-schema';",
          "import { customerFieldsSchema } from '@/components/customer-form/customer-schema';",
          "import { formatBRL } from '@/lib/money';",
          "import { apiRequest } from '@/api/client';",
        ),
        refused: [],
      },
    ],
  ],
  [
    'lib, api and components never import a feature or the app',
    [
      {
        at: 'src/lib/fixture.ts',
        code: importing("import { App } from '@/app/app';"),
        refused: [/sit below the features/],
      },
    ],
  ],
  [
    'the browser app never imports server code',
    [
      {
        at: 'src/api/fixture.ts',
        code: importing("import { openSandbox } from '../../server/sandbox/sandbox';"),
        refused: [/never imports server/],
      },
    ],
  ],
  [
    'server code never imports React, nor anything of the browser app',
    [
      {
        at: 'server/app/fixture.ts',
        code: importing("import { useState } from 'react';"),
        refused: [/never imports React/],
      },
      {
        at: 'server/sandbox/fixture.ts',
        code: importing("import { formatBRL } from '../../src/lib/money';"),
        refused: [/Server code never imports the browser app/],
      },
      {
        at: 'server/app/http/fixture.ts',
        code: importing("import { Customer } from '../../../src/api/schemas';"),
        refused: [/Server code never imports the browser app/],
      },
    ],
  ],
  [
    'the browser app and the server import the contract by name',
    [
      {
        at: 'server/app/http/fixture.ts',
        code: importing(
          "import { Config } from '#contract/api/config';",
          "import { validatePontuar } from '#contract/rules/validation';",
          "import { REWARD_STATUSES } from '#contract/wire';",
        ),
        refused: [],
      },
      {
        at: 'src/lib/fixture.ts',
        code: importing("import { VALOR_GASTO_MAX } from '#contract/wire';"),
        refused: [],
      },
    ],
  ],
  [
    'the contract never imports the browser app, the server, React or Node',
    [
      {
        at: 'contract/api/fixture.ts',
        code: importing(
          "import { formatBRL } from '../../src/lib/money';",
          "import { openStore } from '../../server/store';",
          "import { useState } from 'react';",
          "import { randomBytes } from 'node:crypto';",
          "import { readFileSync } from 'fs';",
        ),
        refused: [
          /contract\/ is what the browser and the server share/,
          /contract\/ is what the browser and the server share/,
          /contract\/ imports zod and its own modules only/,
          /contract\/ imports zod and its own modules only/,
          /contract\/ imports zod and its own modules only/,
        ],
      },
      {
        at: 'contract/api/fixture.ts',
        code: importing(
          "import * as z from 'zod/mini';",
          "import { lazySchema } from '../lazy-schema';",
          "import { POSTING_STATES } from '../wire';",
        ),
        refused: [],
      },
    ],
  ],
  [
    'the app server and its store never import the sandbox; only the composition builds it',
    [
      {
        at: 'server/app/domain/journal/fixture.ts',
        code: importing("import { countersFor } from '../../../sandbox/rules/rewards';"),
        refused: [/The app server never imports the sandbox/],
      },
      {
        at: 'server/app/fixture.ts',
        code: importing("import { openSandbox } from '../sandbox/sandbox';"),
        refused: [/The app server never imports the sandbox/],
      },
      {
        at: 'server/store/fixture.ts',
        code: importing("import { openSandbox } from '../sandbox/sandbox';"),
        refused: [/The app server never imports the sandbox/],
      },
      {
        at: 'server/app/embedded.ts',
        code: "import type { Sandbox } from '../sandbox/sandbox';\nexport type X = Sandbox;\n",
        refused: [],
      },
    ],
  ],
  [
    'the sandbox never imports the app server, its store or ops',
    [
      {
        at: 'server/sandbox/fixture.ts',
        code: importing(
          "import { withSecurityHeaders } from '../app/http/security';",
          "import { openStore } from '../store';",
          "import { backupSqlite } from '../ops/backup';",
        ),
        refused: [
          /The sandbox stands in for the service/,
          /The sandbox stands in for the service/,
          /The sandbox stands in for the service/,
        ],
      },
    ],
  ],
  [
    'the app server and its store never import ops/',
    [
      {
        at: 'server/app/config.ts',
        code: importing("import { readBackupEnv } from '../ops/backup';"),
        refused: [/ops\/ \(backup, restore, doctor\) sits above/],
      },
      {
        at: 'server/store/fixture.ts',
        code: importing("import { backupSqlite } from '../ops/backup';"),
        refused: [/ops\/ \(backup, restore, doctor\) sits above/],
      },
    ],
  ],
  [
    'lib/ never imports api/',
    [
      {
        at: 'src/lib/fixture.ts',
        code: importing("import { Customer } from '@/api/schemas';"),
        refused: [/lib\/ sits below api\//],
      },
    ],
  ],
  [
    'http/ reaching the store or the upstream client fails',
    [
      {
        at: 'server/app/http/fixture.ts',
        code: importing("import { listTerminals } from '../../store';"),
        refused: [/http\/ never reaches the store/],
      },
      {
        at: 'server/app/http/fixture.ts',
        code: importing("import { clientOf } from '../upstream/client';"),
        refused: [/http\/ never reaches the store/],
      },
    ],
  ],
  [
    'domain/ importing http/ or the composition fails; the store and upstream are fine',
    [
      {
        at: 'server/app/domain/fixture.ts',
        code: importing("import { fail } from '../http/envelope';"),
        refused: [/domain\/ never imports http/],
      },
      {
        at: 'server/app/domain/journal/fixture.ts',
        code: importing("import { readServerEnv } from '../../config';"),
        refused: [/domain\/ never imports http/],
      },
      {
        at: 'server/app/domain/fixture.ts',
        code: importing(
          "import { listTerminals } from '../../store';",
          "import { clientOf } from '../upstream/client';",
        ),
        refused: [],
      },
    ],
  ],
  [
    'upstream/ importing the domain, http/ or the store fails',
    [
      {
        at: 'server/app/upstream/fixture.ts',
        code: importing(
          "import { isSettled } from '../domain/journal/ledger';",
          "import { fail } from '../http/envelope';",
          "import { openStore } from '../../store';",
        ),
        refused: [
          /upstream\/ is the bottom layer/,
          /upstream\/ is the bottom layer/,
          /upstream\/ is the bottom layer/,
        ],
      },
    ],
  ],
  [
    'the store importing the app server, or production code importing test support, fails',
    [
      {
        at: 'server/store/fixture.ts',
        code: importing("import { isSettled } from '../app/domain/journal/ledger';"),
        refused: [/The store never imports the app server/],
      },
      {
        at: 'server/app/domain/fixture.ts',
        code: importing("import { startRelay } from '../../testing/relay';"),
        refused: [/never imports test support/],
      },
    ],
  ],
  [
    'an e2e spec never sleeps: waitForTimeout fails the lint',
    [
      {
        at: 'e2e/fixture.spec.ts',
        code: [
          "import { test } from '@playwright/test';",
          "test('x', async ({ page }) => {",
          '  await page.waitForTimeout(500);',
          '});',
          '',
        ].join('\n'),
        refused: [/No sleeping in e2e/],
      },
    ],
  ],
  [
    'a dialog opened by showModal() or focused by autoFocus fails; openModal() passes',
    [
      {
        at: 'src/features/points/components/fixture.tsx',
        code: [
          'export const open = (d: HTMLDialogElement) => d.showModal();',
          'export const X = () => (',
          '  <dialog>',
          '    <button autoFocus>Entregar</button>',
          '  </dialog>',
          ');',
          '',
        ].join('\n'),
        refused: [
          /Open a <dialog> with openModal\(\)/,
          /autoFocus in a <dialog> is undone by showModal\(\)/,
        ],
      },
      {
        at: 'src/features/points/components/fixture.tsx',
        code: [
          "import { openModal } from '@/lib/modal';",
          'export const open = (d: HTMLDialogElement) => openModal(d);',
          'export const X = () => (',
          '  <dialog>',
          '    <button data-autofocus>Entregar</button>',
          '  </dialog>',
          ');',
          '',
        ].join('\n'),
        refused: [],
      },
    ],
  ],
];

describe('lint boundaries', { timeout: 30_000 }, () => {
  for (const [title, fixtures] of cases) {
    test(title, async () => {
      for (const { at, code, refused } of fixtures) {
        expect(await boundaryErrors(at, code), at).toEqual(
          refused.map((message) => expect.stringMatching(message)),
        );
      }
    });
  }
});
