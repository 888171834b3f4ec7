// Makes a browser context an enrolled terminal (a caixa unless told) of a spec's own relayed
// app server (live mode asks for enrollment): enrolled straight in the server's store, its
// signed credential set as the terminal cookie.
import type { BrowserContext } from '@playwright/test';
import type { OwnRelayedApp } from './own-server';

export async function enrollContext(
  context: BrowserContext,
  own: OwnRelayedApp,
  name: string,
  role: 'caixa' | 'gerente' = 'caixa',
): Promise<void> {
  const url = own.app.url;
  await context.addCookies([
    {
      name: `pdv_terminal_${new URL(url).port}`,
      value: await own.credential(role, name),
      url,
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
}
