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
  repeatedParam: (name: string) =>
    `O parâmetro ${name} foi enviado mais de uma vez. Envie cada parâmetro uma só vez.`,
  unknownParam: (name: string) => `Parâmetro não aceito nesta operação: ${name}.`,
  tooLarge: 'Requisição grande demais.',
  unavailable: 'Serviço de fidelidade indisponível. Tente novamente em instantes.',
  contingency:
    'Serviço de fidelidade indisponível — modo contingência: o cadastro e o saldo não podem ser lidos agora. As vendas são guardadas e lançadas quando o serviço voltar.',
  timeout: 'O serviço de fidelidade demorou demais para responder. Tente novamente.',
  badUpstream: 'Resposta inválida do serviço de fidelidade. Tente novamente.',
  internal: 'Erro interno no servidor. Tente novamente.',
  foreignHost: 'Endereço não reconhecido por este servidor.',
  crossOrigin: 'Requisição recusada: ela não veio desta aplicação.',
  notJson: 'O corpo da requisição deve ser JSON (Content-Type: application/json).',
  badJson: 'O corpo da requisição não é um JSON válido.',
  notEnrolled: 'Este terminal não está registrado. Peça ao gerente um código de registro.',
  roleForbidden: 'O perfil deste terminal não permite esta operação.',
  tooMany: (wait: string) =>
    `Muitas requisições deste terminal. Aguarde ${wait} e tente novamente.`,
  enrollTooMany: (wait: string) =>
    `Muitas tentativas de registro. Aguarde ${wait} e tente novamente.`,
  codeMissing: 'Digite o código de registro.',
  codeInvalid: 'Código inválido, já usado ou expirado. Peça um novo código ao gerente.',
  postingsInFlight: (n: number) =>
    `Há ${n} lançamentos deste caixa em andamento. Aguarde um deles terminar e lance de novo.`,
  passwordLocked: (wait: string) =>
    `Senha do atendente bloqueada neste terminal após várias tentativas incorretas. Tente novamente em ${wait}.`,
} as const;
