/**
 * APP_SECRET, or in sandbox mode a random one kept beside the store (`app-secret`, created
 * once, mode 0600): the server and the command lines that seal or open with it read it here.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function appSecretFor(appSecret: string | null, appDb: string): string {
  if (appSecret !== null) return appSecret;
  const file = path.join(path.dirname(appDb), 'app-secret');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url') + '\n', {
        mode: 0o600,
        flag: 'wx',
      });
    } catch (err) {
      // Another process created it first: theirs is the one.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return readFileSync(file, 'utf8').trim();
}
