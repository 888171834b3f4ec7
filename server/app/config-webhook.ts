// Vigilância's outbound webhook in the environment (ALERT_WEBHOOK_*), read with the rest of it
// by ./config.ts. Off when ALERT_WEBHOOK_URL is unset; with it, the secret that signs each
// delivery is required. Messages name the variables, never their values.

export interface WebhookEnv {
  url: string;
  secret: string;
}

export type WebhookEnvResult =
  { ok: true; webhook: WebhookEnv | null; retentionMs: number } | { ok: false; error: string };

/** The shortest ALERT_WEBHOOK_SECRET accepted. */
export const WEBHOOK_SECRET_MIN = 16;

export function readWebhookEnv(
  env: Readonly<Record<string, string | undefined>>,
): WebhookEnvResult {
  const url = env.ALERT_WEBHOOK_URL?.trim() || undefined;
  const secret = env.ALERT_WEBHOOK_SECRET?.trim() || undefined;
  // Delivered and failed deliveries are deleted at night once older than this (read with the
  // webhook off too: the deliveries of when it was on go as well).
  const days = env.ALERT_WEBHOOK_RETENCAO_DIAS?.trim() || '30';
  if (!/^\d{1,4}$/.test(days) || Number(days) < 1 || Number(days) > 3650) {
    return { ok: false, error: 'ALERT_WEBHOOK_RETENCAO_DIAS deve ser um inteiro de 1 a 3650' };
  }
  const retentionMs = Number(days) * 86_400_000;
  if (url === undefined) return { ok: true, webhook: null, retentionMs };
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed === null || !['http:', 'https:'].includes(parsed.protocol) || parsed.username) {
    return {
      ok: false,
      error: 'ALERT_WEBHOOK_URL deve ser um endereço http:// ou https:// (sem usuário e senha)',
    };
  }
  if (secret === undefined || secret.length < WEBHOOK_SECRET_MIN) {
    return {
      ok: false,
      error: `ALERT_WEBHOOK_SECRET é obrigatório com ALERT_WEBHOOK_URL (${WEBHOOK_SECRET_MIN} caracteres ou mais): assina cada entrega`,
    };
  }
  return { ok: true, webhook: { url: parsed.href, secret }, retentionMs };
}
