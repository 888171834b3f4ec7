// After the run: the servers' build the config made for it (server/testing/server-build.ts).
import { removeServers } from '../../server/testing/server-build';

export default function teardown(): void {
  if (process.env.SERVER_BUILD) removeServers(process.env.SERVER_BUILD);
}
