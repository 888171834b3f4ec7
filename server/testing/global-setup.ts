// Vitest's global setup for the server project: the servers built once for the run
// (server/testing/server-build.ts), removed after it.
import { buildServers, removeServers } from './server-build';

export default function setup(): () => void {
  const dir = buildServers();
  return () => removeServers(dir);
}
