// The counter composed: the customer's rewards waiting, "Entregar" and its dialog, and when
// "Entregar" shows at all. The service and our server are stubbed at fetch.
import { beforeEach, describe, expect, test } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  calmContingency,
  counterConfig,
  customerWire,
  jsonResponse,
  okJson,
  rewardPageAnswer,
  rewardWire,
  stubFetch,
} from '@/testing/fixtures';
import { refusal, stubServiceEachTest } from '@/testing/api';
import { lancamentoWire } from '@/testing/lancamentos';
import { savePendingHandOver } from '@/features/points/pending-hand-over';
import { CaixaRoute } from './caixa';
import { renderWithQuery, waitLongerForLazyParts } from '@/testing/render';

const BASE = '/api/v4/estabelecimentos/1';

const VALE = 'Vale-compras de R$ 10,00';

// The counter's parts and the hand-over dialog load on first use (dynamic imports): on a busy
// machine that takes longer than the default second of findBy/waitFor.
waitLongerForLazyParts();

stubServiceEachTest();
beforeEach(() => sessionStorage.clear());

const config = counterConfig;

/** The service's answer to the counter's search: Maria da Silva, with `over`. */
const mariaFound = (over: Record<string, unknown>) =>
  okJson(customerWire({ nome: 'Maria da Silva', ...over }));

/** The service with Maria and one reward waiting; `resgatar` answers the hand-over. */
function service(resgatar: () => Response) {
  let waiting = 1;
  const vale = rewardWire({
    id_premio_cliente: 4,
    id_premio: 3,
    nome: VALE,
    valido_ate: '2099-12-31 23:59:59',
  });
  return stubFetch((url, init) => {
    if (url === `${BASE}/clientes/buscar`)
      return mariaFound({
        pendente_resgate_premio_fidelidade: waiting,
        resgatado_premio_fidelidade: 1 - waiting,
      });
    if (url.startsWith(`${BASE}/recompensas`))
      return rewardPageAnswer({
        data: waiting ? [vale] : [],
        total: waiting,
        from: null,
        to: null,
      });
    if (url === `${BASE}/fidelidade/resgatar-premio` && init.method === 'POST') {
      const answer = resgatar();
      if (answer.status === 200) waiting = 0;
      return answer;
    }
    if (url === '/api/contingencia') return calmContingency();
    return refusal(404, 'Não encontrado.');
  });
}

async function openCounter(c = config()) {
  const user = userEvent.setup();
  renderWithQuery(<CaixaRoute config={c} />, { noRetry: true });
  await user.type(await screen.findByLabelText('Senha do atendente'), '1234{Enter}');
  await user.type(screen.getByLabelText(/Buscar cliente/), '11987654321{Enter}');
  await screen.findByRole('list', { name: 'Prêmios a entregar' });
  return user;
}

const entregar = () => screen.queryByRole('button', { name: `Entregar ${VALE}` });

describe('the counter hands a reward over', () => {
  test('from the panel: confirmed, handed over, and the list and counters follow', async () => {
    const fetchMock = service(() =>
      okJson({ id_cliente: 42, id_premio_cliente: 4 }, 'Prêmio resgatado com sucesso.'),
    );
    const user = await openCounter();
    expect(screen.getByText('1 pendente de resgate')).toBeTruthy();
    await user.click(entregar()!);
    const dialog = await screen.findByRole('alertdialog', {
      name: `Entregar ${VALE} a Maria da Silva?`,
    });
    await user.keyboard('{Enter}');
    await within(dialog).findByRole('heading', { name: '✓ Prêmio entregue' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByText('Nenhum prêmio a entregar.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('1 pendente de resgate')).toBeNull());
    // The sale is still there to be posted, its amount focused (the row has left).
    expect(document.activeElement).toBe(screen.getByLabelText('Valor da compra'));
    expect(
      fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/resgatar-premio')),
    ).toHaveLength(1);
  });

  test('Escape in the dialog cancels it, and only it: the customer and the sale stay', async () => {
    service(() => jsonResponse(500, {}));
    const user = await openCounter();
    const button = entregar()!;
    await user.click(button);
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('region', { name: 'Maria da Silva' })).toBeTruthy();
    expect(document.activeElement).toBe(button);
  });

  test('a service without hand-overs: said once, then "Entregar" is gone for the session', async () => {
    const fetchMock = service(() =>
      refusal(404, 'Rota não encontrada.', { data: { entrega_indisponivel: true } }),
    );
    const user = await openCounter();
    await user.click(entregar()!);
    await screen.findByRole('alertdialog');
    await user.keyboard('{Enter}');
    await screen.findByText('Este serviço de fidelidade não permite entregar prêmios no caixa.');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(entregar()).toBeNull();
    // The reward is still listed (nothing was handed over), with no way to try again.
    expect(screen.getByText(VALE)).toBeTruthy();
    expect(
      fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/resgatar-premio')),
    ).toHaveLength(1);
  });

  test('the setting off (entregaPremios: false): the rewards are listed, with no "Entregar"', async () => {
    service(() => jsonResponse(500, {}));
    await openCounter(config({ entregaPremios: false }));
    expect(screen.getByText(VALE)).toBeTruthy();
    expect(entregar()).toBeNull();
  });

  test('a server from before hand-overs (no entregaPremios) offers "Entregar"', async () => {
    service(() => jsonResponse(500, {}));
    await openCounter();
    expect(entregar()).toBeTruthy();
  });

  test('right after a posting that won it: "Entregar agora", then "✓ Entregue"', async () => {
    const carteira = customerWire().carteira as { historico: unknown[] };
    const historico = carteira.historico;
    const credit25 = {
      id_cartela_cliente: 8,
      pontos: 25,
      data: '2024-06-11 09:00:00',
      tipo: 'credito',
      data_validade: '2025-06-30',
    };
    let won = 0;
    let waiting = 0;
    const vale = rewardWire({ id_premio_cliente: 4, id_premio: 3, nome: VALE });
    const fetchMock = stubFetch((url) => {
      if (url === `${BASE}/clientes/buscar`)
        return mariaFound({
          compras: 3 + won,
          conquistados_premio_fidelidade: won,
          pendente_resgate_premio_fidelidade: waiting,
          // After the posting, its credit is the newest of the history: its points.
          ...(won ? { carteira: { ...carteira, historico: [credit25, ...historico] } } : {}),
        });
      if (url === `${BASE}/fidelidade/pontuar`) {
        won = 1;
        waiting = 1;
        return okJson({ id_cliente: 42, id_ponto: 7, saldo_atual: 0, saldo_carencia: 0 });
      }
      if (url.startsWith('/api/lancamentos/'))
        return okJson(
          lancamentoWire({
            terminal: '1',
            atualizado_em: '2026-11-23T12:00:00.000Z',
            nome: null,
          }),
        );
      if (url.startsWith(`${BASE}/recompensas`))
        return rewardPageAnswer({ data: waiting ? [vale] : [], total: waiting });
      if (url === `${BASE}/fidelidade/resgatar-premio`) {
        waiting = 0;
        return okJson({ id_cliente: 42, id_premio_cliente: 4 });
      }
      return calmContingency();
    });
    const user = userEvent.setup();
    renderWithQuery(<CaixaRoute config={config()} />);
    await user.type(await screen.findByLabelText('Senha do atendente'), '1234{Enter}');
    await user.type(screen.getByLabelText(/Buscar cliente/), '11987654321{Enter}');
    await user.type(await screen.findByLabelText('Valor da compra'), '2590{Enter}');
    expect(await screen.findByText('+25 pontos nesta compra')).toBeTruthy();
    const now = await screen.findByRole('button', { name: `Entregar agora ${VALE}` });
    await user.click(now);
    await screen.findByRole('alertdialog', { name: `Entregar ${VALE} a Maria da Silva?` });
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('✓ Entregue')).toBeTruthy();
    expect(
      fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/resgatar-premio')),
    ).toHaveLength(1);
    // Esc is the counter's again: the next customer.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('✓ Entregue')).toBeNull());
  });

  test('after a reload the hand-over left pending is followed by itself', async () => {
    const id = '5b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
    savePendingHandOver({
      id,
      at: 1,
      target: {
        customer: { id_cliente: 42, nome: 'Maria da Silva', celular: '+5511987654321' },
        reward: {
          id_premio: 3,
          id_premio_cliente: 4,
          nome: VALE,
          categoria_premio: 'premio_fidelidade',
          valido_ate: '2099-12-31 23:59:59',
        },
      },
    });
    const fetchMock = stubFetch((url) =>
      url.startsWith(`/api/lancamentos/${id}`)
        ? okJson(
            lancamentoWire({
              chave: id,
              terminal: '1',
              atualizado_em: '2026-11-23T12:00:00.000Z',
              tipo: 'premio',
              premio: { id_premio: 3, id_premio_cliente: 4, nome: VALE },
              valor_gasto: 0,
              nome: 'Maria da Silva',
              pontos: null,
              conferido: true,
            }),
          )
        : calmContingency(),
    );
    renderWithQuery(<CaixaRoute config={config()} />);
    expect(
      await screen.findByRole('heading', { name: '✓ Prêmio entregue (conferido no servidor)' }),
    ).toBeTruthy();
    expect(
      fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/resgatar-premio')),
    ).toHaveLength(0);
  });
});
