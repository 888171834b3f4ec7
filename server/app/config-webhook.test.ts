import { describe, expect, test } from 'vitest';
import { readConfig } from './config';

describe('ALERT_WEBHOOK_*', () => {
  test('the webhook is off when ALERT_WEBHOOK_URL is unset', () => {
    const r = readConfig({});
    expect(r.ok && r.config.webhook).toBeNull();
  });

  test('a URL without its secret stops the server, naming the variable in Portuguese, never the value', () => {
    const r = readConfig({ ALERT_WEBHOOK_URL: 'https://erp.loja.com.br/hooks/pdv?k=SEGREDO' });
    expect(r.ok).toBe(false);
    const error = r.ok ? '' : r.error;
    expect(error).toContain('ALERT_WEBHOOK_SECRET é obrigatório com ALERT_WEBHOOK_URL');
    expect(error).not.toContain('SEGREDO');
  });

  test('a short secret or a URL that is not http(s) is refused', () => {
    const short = readConfig({
      ALERT_WEBHOOK_URL: 'https://x.example/h',
      ALERT_WEBHOOK_SECRET: 'curto',
    });
    expect(short.ok ? '' : short.error).toContain('16 caracteres ou mais');
    const ftp = readConfig({
      ALERT_WEBHOOK_URL: 'ftp://x.example/h',
      ALERT_WEBHOOK_SECRET: 'um-segredo-bem-comprido',
    });
    expect(ftp.ok ? '' : ftp.error).toContain('ALERT_WEBHOOK_URL deve ser um endereço http');
  });

  test('settled deliveries are kept 30 days unless ALERT_WEBHOOK_RETENCAO_DIAS says otherwise', () => {
    const day = 86_400_000;
    const byDefault = readConfig({});
    expect(byDefault.ok && byDefault.config.webhookRetentionMs).toBe(30 * day);
    const seven = readConfig({ ALERT_WEBHOOK_RETENCAO_DIAS: '7' });
    expect(seven.ok && seven.config.webhookRetentionMs).toBe(7 * day);
    for (const bad of ['0', '-3', '2.5', 'trinta', '3651']) {
      const r = readConfig({ ALERT_WEBHOOK_RETENCAO_DIAS: bad });
      expect(r.ok ? '' : r.error, bad).toContain(
        'ALERT_WEBHOOK_RETENCAO_DIAS deve ser um inteiro de 1 a 3650',
      );
    }
  });

  test('with both set the webhook is on', () => {
    const r = readConfig({
      ALERT_WEBHOOK_URL: 'https://erp.loja.com.br/hooks/pdv',
      ALERT_WEBHOOK_SECRET: 'um-segredo-bem-comprido',
    });
    expect(r.ok && r.config.webhook).toEqual({
      url: 'https://erp.loja.com.br/hooks/pdv',
      secret: 'um-segredo-bem-comprido',
    });
  });
});
