import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The service's error envelope, also used for every error the app server itself answers on /api. */
export function fail(c: Context, status: ContentfulStatusCode, message: string): Response {
  return c.json({ success: false, message, data: {} }, status);
}

export const messages = {
  notFound: 'Rota não encontrada.',
  methodNotAllowed: 'Método não permitido.',
  forbidden: 'Este terminal só pode acessar o próprio estabelecimento.',
  badPath: 'Caminho inválido.',
  tooLarge: 'Requisição grande demais.',
  unavailable: 'Serviço de fidelidade indisponível. Tente novamente em instantes.',
  timeout: 'O serviço de fidelidade demorou demais para responder. Tente novamente.',
  badUpstream: 'Resposta inválida do serviço de fidelidade. Tente novamente.',
  internal: 'Erro interno no servidor. Tente novamente.',
} as const;
