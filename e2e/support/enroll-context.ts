// Makes a browser context an enrolled terminal (a caixa unless told) of an app server the spec
// started itself (live mode asks for enrollment): enrolled straight in the server's store, its
// signed credential set as the terminal cookie.
import type { BrowserContext } from '@playwright/test';
import { signCredential } from '../../server/app/domain/credential';
import { enrollDirectly, openStore } from '../../server/store';
import { APP_SECRET_FOR_TESTS } from '../../server/testing/processes';

export async function enrollContext(
  context: BrowserContext,
  app: { url: string; appDb: string; name: string; role?: 'caixa' | 'gerente' },
): Promise<void> {
  const store = await openStore({ sqlitePath: app.appDb });
  try {
    const { terminal, nonce } = await enrollDirectly(store, {
      name: app.name,
      role: app.role ?? 'caixa',
    });
    await context.addCookies([
      {
        name: `pdv_terminal_${new URL(app.url).port}`,
        value: signCredential(APP_SECRET_FOR_TESTS, terminal.id, nonce),
        url: app.url,
        httpOnly: true,
        sameSite: 'Strict',
      },
    ]);
  } finally {
    await store.close();
  }
}
