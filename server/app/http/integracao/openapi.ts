/**
 * `GET /api/integracao/openapi.json`: the PDV's endpoints as an OpenAPI 3.1 document, built
 * from the same zod schemas the server checks requests with (zod's own `toJSONSchema`), so
 * the document cannot drift from what the server accepts and answers. Each operation has a
 * stable `operationId`: a PDV vendor's generated client names its methods after them, so
 * renaming one breaks that client's code (openapi-lint.test.ts holds them and lints the
 * document with Redocly's recommended rules).
 */
import * as z from 'zod/mini';
import { PDV_WAIT_MAX_S, PdvSaleAnswer, PdvSaleRequest } from '#contract/api/integracao';

const schema = (s: z.ZodMiniType, io: 'input' | 'output') => {
  const json = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  delete (json as { $schema?: string }).$schema;
  return json;
};

/** The service's envelope around an answer's `data`. */
const envelope = (data: object, success: boolean) => ({
  type: 'object',
  required: ['success', 'message', 'data'],
  properties: {
    success: { const: success },
    message: { type: 'string', description: 'Para uma pessoa ler (português).' },
    data,
    ...(success
      ? {}
      : {
          errors: {
            type: 'object',
            additionalProperties: { type: 'array', items: { type: 'string' } },
            description: 'Só em 422: as mensagens de cada campo (`itens.0.valor`, `cpf`…).',
          },
        }),
  },
});

const answer = (description: string, data: object, success = true) => ({
  description,
  content: { 'application/json': { schema: envelope(data, success) } },
});

const saleIdParam = {
  name: 'id_venda',
  in: 'path',
  required: true,
  description: 'O id da venda no PDV (o mesmo enviado em POST /vendas).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
};

/** `serverUrl`: PUBLIC_ORIGIN when set, else the origin the document was asked at. */
export function openApiDocument(serverUrl: string): object {
  const sale = schema(PdvSaleAnswer, 'output');
  const error = { type: 'object' };
  const refusals = {
    401: answer('Sem token, ou token inválido ou revogado.', error, false),
    429: answer('Acima do limite de requisições deste PDV (veja Retry-After).', error, false),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fidelidade — integração do PDV',
      version: '1',
      description:
        'O PDV da loja envia cada venda; clientes já cadastrados são pontuados na hora, os ' +
        'demais aguardam o caixa. Valores em centavos. Nunca devolve CPF nem celular completo.',
      license: {
        name: 'Proprietária: uso da loja e de quem integra o PDV dela',
        identifier: 'LicenseRef-Proprietary',
      },
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        pdv: {
          type: 'http',
          scheme: 'bearer',
          description: 'npm run terminal -- add --role integracao',
        },
      },
    },
    security: [{ pdv: [] }],
    paths: {
      '/api/integracao/vendas': {
        post: {
          operationId: 'criarVenda',
          summary: 'Envia uma venda (id_venda é a chave de idempotência)',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schema(PdvSaleRequest, 'input') } },
          },
          responses: {
            201: answer('Venda recebida.', sale),
            200: answer('A mesma venda já recebida (mesmo id_venda e mesmo conteúdo).', sale),
            409: answer('id_venda já usado por outra venda (outro conteúdo).', sale, false),
            422: answer('Campo inválido (errors diz qual).', error, false),
            ...refusals,
          },
        },
      },
      '/api/integracao/vendas/{id_venda}': {
        get: {
          operationId: 'consultarVenda',
          summary: 'Estado da venda, pontos, prêmios e o cliente (nome e celular mascarado)',
          parameters: [
            saleIdParam,
            {
              name: 'aguardar',
              in: 'query',
              required: false,
              description: `Espera até o estado mudar ou a venda terminar (segundos, até ${PDV_WAIT_MAX_S}).`,
              schema: { type: 'integer', minimum: 0, maximum: PDV_WAIT_MAX_S },
            },
          ],
          responses: {
            200: answer('A venda.', sale),
            404: answer('Este PDV não tem venda com esse id.', error, false),
            ...refusals,
          },
        },
      },
      '/api/integracao/vendas/{id_venda}/cancelar': {
        post: {
          operationId: 'cancelarVenda',
          summary: 'Cancela uma venda ainda não lançada',
          parameters: [saleIdParam],
          responses: {
            200: answer('Venda cancelada.', sale),
            409: answer('Já lançada, sendo lançada ou encerrada: não cancela.', sale, false),
            404: answer('Este PDV não tem venda com esse id.', error, false),
            ...refusals,
          },
        },
      },
    },
  };
}
