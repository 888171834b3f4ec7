import type { AppServerOptions } from './app';
import type { Sandbox } from '../sandbox/sandbox';

type UpstreamOptions = Pick<
  AppServerOptions,
  | 'mode'
  | 'upstream'
  | 'upstreamBaseUrl'
  | 'appToken'
  | 'accessToken'
  | 'establishmentId'
  | 'establishmentName'
  | 'pdvPassword'
>;

/**
 * The app server's upstream when it embeds the sandbox: called in-process, with the demo
 * tokens and name of the chosen establishment. Null when the sandbox has no such establishment.
 */
export function embeddedSandbox(sandbox: Sandbox, establishmentId: number): UpstreamOptions | null {
  const establishment = sandbox.establishments().find((e) => e.id === establishmentId);
  if (establishment === undefined) return null;
  return {
    mode: 'sandbox',
    upstream: sandbox.app,
    upstreamBaseUrl: 'http://sandbox.internal',
    appToken: establishment.appToken,
    accessToken: establishment.accessToken,
    establishmentId: establishment.id,
    establishmentName: establishment.nome,
    pdvPassword: establishment.senhaAtendente,
  };
}
