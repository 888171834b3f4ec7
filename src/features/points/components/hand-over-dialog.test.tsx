import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApi } from '@/api/client';
import { customerKeys } from '@/api/keys';
import { createQueryClient } from '@/api/query-client';
import { Customer, RewardPage, type RewardRecord } from '@/api/schemas';
import {
  acceptedJson,
  customerWire,
  jsonResponse,
  ok,
  okJson,
  rewardPageWire,
  rewardWire,
  sentBody,
  stubFetch,
} from '@/testing/fixtures';
import { fieldRefusal, idempotencyKeyOf, loseAnswerAt, neverReachAt, refusal } from '@/testing/api';
import { lancamentoWire } from '@/testing/lancamentos';
import { pendingRewardsQuery } from '@/features/points/api/pending-rewards';
import { handOverUnsupported } from '@/features/points/hand-over-keys';
import {
  loadPendingHandOver,
  savePendingHandOver,
  type HandOverTarget,
} from '@/features/points/pending-hand-over';
import { HandOverDialog } from './hand-over-dialog';
import { renderWithQuery } from '@/testing/render';

const RESGATAR = '/api/v4/estabelecimentos/1/fidelidade/resgatar-premio';
const VALE = 'Vale-compras de R$ 10,00';

beforeEach(() => {
  configureApi({ establishmentId: 1 });
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const target: HandOverTarget = {
  customer: { id_cliente: 42, nome: 'Maria da Silva', celular: '+5511987654321' },
  reward: {
    id_premio: 3,
    id_premio_cliente: 900,
    nome: VALE,
    categoria_premio: 'premio_fidelidade',
    valido_ate: '2026-12-18 23:59:59',
  },
};

/** The journal's entry of a hand-over, as `GET /api/lancamentos/{chave}` answers it. */
const entrega = (chave: string, over: Record<string, unknown> = {}) =>
  lancamentoWire({
    chave,
    tipo: 'premio',
    premio: { id_premio: 3, id_premio_cliente: 900, nome: VALE },
    terminal: '1',
    terminal_nome: 'Caixa 1',
    valor_gasto: 0,
    nome: 'Maria da Silva',
    pontos: null,
    conferido: true,
    ...over,
  });
const handedOver = ok({ id_cliente: 42, id_premio_cliente: 900 }, 'Prêmio resgatado com sucesso.');

const posts = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => String(url) === RESGATAR);
const follows = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => String(url).startsWith('/api/lancamentos/'));

/** The dialog for Maria's Vale with the password typed, unless `options` says otherwise. */
function setup({
  target: chosen = target,
  password = '1234',
  qc = createQueryClient(),
}: { target?: HandOverTarget | null; password?: string | null; qc?: QueryClient } = {}) {
  const props = {
    onClose: vi.fn(),
    onOutcome: vi.fn(),
    onPasswordRejected: vi.fn(),
  };
  const user = userEvent.setup();
  renderWithQuery(
    <HandOverDialog
      target={chosen}
      password={password}
      establishment="Loja Demo"
      terminal="Caixa 1"
      {...props}
    />,
    { queryClient: qc },
  );
  return { user, qc, ...props };
}

const dialog = () => screen.getByRole('alertdialog');
/** What the dialog says. */
const outcome = () => dialog().textContent ?? '';

/**
 * The service answers the hand-over with `answer`: the dialog opens, the cashier confirms
 * (Enter) and the outcome's `heading` shows.
 */
async function confirmAnswered(answer: () => Response, heading: string) {
  const fetchMock = stubFetch(answer);
  const rendered = setup();
  await rendered.user.keyboard('{Enter}');
  await screen.findByRole('heading', { name: heading });
  return { fetchMock, ...rendered };
}

describe('HandOverDialog: the confirmation', () => {
  test("asks once, with the reward's and the customer's names; the focus is on Entregar", () => {
    setup();
    expect(
      screen.getByRole('alertdialog', { name: `Entregar ${VALE} a Maria da Silva?` }),
    ).toBeTruthy();
    expect(outcome()).toContain('Fidelidade · válido até 18/12/2026');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Entregar/ }));
  });

  test('a customer with no name is named by the masked phone', () => {
    setup({ target: { ...target, customer: { ...target.customer, nome: null } } });
    expect(
      screen.getByRole('alertdialog', { name: `Entregar ${VALE} a (11) *****-4321?` }),
    ).toBeTruthy();
  });

  test('Escape cancels: nothing is sent, nothing kept, and the counter’s own Esc does not run', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, handedOver));
    const prevented: boolean[] = [];
    const spy = (e: KeyboardEvent) => e.key === 'Escape' && prevented.push(e.defaultPrevented);
    window.addEventListener('keydown', spy);
    const { user, onClose } = setup();
    await user.keyboard('{Escape}');
    window.removeEventListener('keydown', spy);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(loadPendingHandOver()).toBeNull();
    expect(prevented).toEqual([true]);
  });

  test('Cancelar cancels too', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, handedOver));
    const { user, onClose } = setup();
    await user.click(screen.getByRole('button', { name: /Cancelar/ }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('with the shift closed it cannot be confirmed', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, handedOver));
    const { user } = setup({ password: null });
    expect(screen.getByText('Abra o turno para entregar.')).toBeTruthy();
    expect((screen.getByRole('button', { name: /^Entregar/ }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.keyboard('{Enter}');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('HandOverDialog: sending once', () => {
  test('Enter confirms: one request with its own id, kept before it leaves; "entregue"', async () => {
    let keptWhenSent: unknown = null;
    const fetchMock = stubFetch(() => {
      keptWhenSent = loadPendingHandOver();
      return jsonResponse(200, handedOver);
    });
    const { user, onOutcome } = setup();
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    expect(outcome()).toContain(`${VALE} entregue a Maria da Silva.`);
    expect(posts(fetchMock)).toHaveLength(1);
    expect(sentBody(fetchMock, 0)).toEqual({
      id_premio: 3,
      id_cliente: 42,
      senha_atendente: '1234',
    });
    const key = idempotencyKeyOf(fetchMock.mock.calls[0]![1]);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(keptWhenSent).toMatchObject({ id: key, target });
    expect(loadPendingHandOver()).toBeNull();
    expect(onOutcome).toHaveBeenCalledWith(expect.objectContaining({ name: 'done' }), target);
    // The focus moves to the answer's main button: Enter (or Esc) closes.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Fechar/ }));
  });

  test('a double Enter sends one request', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, handedOver));
    const { user } = setup();
    await user.keyboard('{Enter}{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    expect(posts(fetchMock)).toHaveLength(1);
  });

  test('the customer’s counters and waiting list change at once', async () => {
    stubFetch(() => jsonResponse(200, handedOver));
    const qc = createQueryClient();
    const customer = Customer.parse(
      customerWire({ pendente_resgate_premio_fidelidade: 2, resgatado_premio_fidelidade: 1 }),
    );
    qc.setQueryData(customerKeys.detail({ kind: 'id', id_cliente: 42 }), customer);
    const page = RewardPage.parse(
      rewardPageWire({
        data: [rewardWire({ id_premio_cliente: 900 }), rewardWire({ id_premio_cliente: 901 })],
        total: 2,
      }),
    );
    qc.setQueryData(pendingRewardsQuery(42).queryKey, page);
    const { user } = setup({ qc });
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    const after = qc.getQueryData<Customer>(customerKeys.detail({ kind: 'id', id_cliente: 42 }));
    expect(after?.pendente_resgate_premio_fidelidade).toBe(1);
    expect(after?.resgatado_premio_fidelidade).toBe(2);
    const list = qc.getQueryData<RewardPage>(pendingRewardsQuery(42).queryKey);
    expect(list?.data.map((r: RewardRecord) => r.id_premio_cliente)).toEqual([901]);
  });

  test('the slip says PRÊMIO ENTREGUE, the reward, the customer, date, time and terminal; F9 prints it alone', async () => {
    stubFetch(() => jsonResponse(200, handedOver));
    const printed: (string | undefined)[] = [];
    vi.spyOn(window, 'print').mockImplementation(() =>
      printed.push(document.documentElement.dataset.print),
    );
    const { user } = setup();
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    const slip = screen.getByTestId('handover-slip');
    expect(dialog().contains(slip)).toBe(false); // printed from the page, not the dialog
    const text = slip.textContent ?? '';
    for (const part of [
      'Loja Demo',
      'PRÊMIO ENTREGUE',
      `Prêmio: ${VALE}`,
      'Cliente: Maria da Silva',
      'Celular: (11) *****-4321',
      'Terminal: Caixa 1',
      'Código do prêmio: 900',
    ])
      expect(text).toContain(part);
    expect(text).toMatch(/Data: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
    expect(text).not.toContain('98765');
    await user.keyboard('{F9}');
    await user.click(screen.getByRole('button', { name: /Imprimir comprovante/ }));
    expect(printed).toEqual(['entrega', 'entrega']);
    expect(document.documentElement.dataset.print).toBeUndefined();
  });
});

describe('HandOverDialog: exactly once when the answer is lost', () => {
  test('a lost answer is followed on the server, never sent again: entregue (conferido)', async () => {
    const { fetchMock, lostKey } = loseAnswerAt(RESGATAR, (key) => okJson(entrega(key)));
    setup();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue (conferido no servidor)' });
    expect(posts(fetchMock)).toHaveLength(1);
    expect(String(follows(fetchMock)[0]![0])).toMatch(new RegExp(`^/api/lancamentos/${lostKey()}`));
  });

  test('a 202 is followed until the journal settles it', async () => {
    let key = '';
    let asked = 0;
    const fetchMock = stubFetch((url, init) => {
      if (url === RESGATAR) {
        key = idempotencyKeyOf(init)!;
        return acceptedJson(entrega(key, { estado: 'verificando', conferido: false }));
      }
      asked += 1;
      return okJson(entrega(key, asked === 1 ? { estado: 'verificando' } : { estado: 'lançado' }));
    });
    setup();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue (conferido no servidor)' });
    expect(posts(fetchMock)).toHaveLength(1);
    expect(follows(fetchMock).length).toBe(2);
  });

  test('the journal finds it was not handed over: said, and it may be handed over again', async () => {
    let key = '';
    stubFetch((url, init) => {
      if (url === RESGATAR) {
        key = idempotencyKeyOf(init)!;
        return acceptedJson(entrega(key, { estado: 'verificando' }));
      }
      return okJson(
        entrega(key, { estado: 'recusado', motivo: 'Conferido: o prêmio não foi entregue.' }),
      );
    });
    setup();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('heading', { name: 'Entrega recusada.' });
    expect(outcome()).toContain('Conferido: o prêmio não foi entregue.');
    expect(loadPendingHandOver()).toBeNull();
  });

  test('a request that never reached the server: said; "Entregar de novo" sends the same id', async () => {
    const { fetchMock, keys, reach } = neverReachAt(RESGATAR, () => jsonResponse(200, handedOver));
    const { user } = setup();
    await user.keyboard('{Enter}');
    await screen.findByRole(
      'heading',
      { name: 'O pedido não chegou ao servidor: nada foi entregue.' },
      { timeout: 3000 },
    );
    expect(loadPendingHandOver()).toMatchObject({ id: keys[0], unsent: true });
    reach();
    await user.click(screen.getByRole('button', { name: 'Entregar de novo' }));
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    expect(posts(fetchMock)).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  const unsent = { id: '7d3e4f50-6172-4c8d-9eaf-102a3b4c5d6e', target, at: 1, unsent: true };

  test('closed after it never arrived, the same reward chosen again reuses its id', async () => {
    savePendingHandOver(unsent);
    const fetchMock = stubFetch(() => jsonResponse(200, handedOver));
    const { user } = setup();
    // Not followed by itself (it is known not to have arrived): the confirmation shows.
    expect(screen.getByRole('alertdialog', { name: /^Entregar/ })).toBeTruthy();
    expect(follows(fetchMock)).toHaveLength(0);
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    expect(idempotencyKeyOf(posts(fetchMock)[0]![1])).toBe(unsent.id);
  });

  test('another reward chosen after one that never arrived gets an id of its own', async () => {
    savePendingHandOver(unsent);
    const fetchMock = stubFetch(() => jsonResponse(200, handedOver));
    const other = { ...target, reward: { ...target.reward, id_premio: 8, id_premio_cliente: 950 } };
    const { user } = setup({ target: other });
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
    expect(idempotencyKeyOf(posts(fetchMock)[0]![1])).not.toBe(unsent.id);
  });

  test('after a reload the pending hand-over is followed to its result, not sent again', async () => {
    const kept = { id: '5b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d', target, at: 1 };
    savePendingHandOver(kept);
    const fetchMock = stubFetch(() => okJson(entrega(kept.id)));
    // Opened by the counter with nothing chosen, and no password yet (the shift reopens).
    setup({ target: null, password: null });
    await screen.findByRole('heading', { name: '✓ Prêmio entregue (conferido no servidor)' });
    expect(posts(fetchMock)).toHaveLength(0);
    expect(String(follows(fetchMock)[0]![0])).toContain(kept.id);
    expect(loadPendingHandOver()).toBeNull();
  });

  test('a hand-over pending when another reward is chosen is followed first', async () => {
    const kept = { id: '5b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d', target, at: 1 };
    savePendingHandOver(kept);
    const fetchMock = stubFetch(() => okJson(entrega(kept.id)));
    const other = { ...target, reward: { ...target.reward, nome: 'Caneca', id_premio: 8 } };
    setup({ target: other });
    await screen.findByRole('heading', { name: '✓ Prêmio entregue (conferido no servidor)' });
    expect(outcome()).toContain(`${VALE} entregue`);
    expect(posts(fetchMock)).toHaveLength(0);
  });
});

describe('HandOverDialog: refusals', () => {
  test("the service's 422 is said in its words; nothing is kept", async () => {
    const { onPasswordRejected } = await confirmAnswered(
      () => fieldRefusal('id_premio', 'O cliente não tem este prêmio para resgatar'),
      'Entrega recusada.',
    );
    expect(within(dialog()).getByRole('alert').textContent).toContain(
      'O cliente não tem este prêmio para resgatar',
    );
    expect(loadPendingHandOver()).toBeNull();
    expect(onPasswordRejected).not.toHaveBeenCalled();
  });

  test('handed over already (another terminal at the same moment): said plainly', async () => {
    const { onOutcome } = await confirmAnswered(
      () => fieldRefusal('id_premio', 'Este prêmio já foi entregue.'),
      'Este prêmio já foi entregue.',
    );
    expect(outcome()).toContain('Nada foi entregue agora.');
    // Said once: the heading, not again as the alert's title.
    expect(dialog().textContent?.match(/já foi entregue/g)).toHaveLength(1);
    expect(onOutcome).toHaveBeenCalledWith(
      { name: 'already', message: expect.any(String) },
      target,
    );
  });

  test('a wrong attendant password: said, and the shift asks for it again', async () => {
    const { onPasswordRejected } = await confirmAnswered(
      () => fieldRefusal('senha_atendente', 'Senha do atendente incorreta.'),
      'Entrega recusada.',
    );
    expect(outcome()).toContain('Senha do atendente incorreta.');
    expect(onPasswordRejected).toHaveBeenCalledTimes(1);
  });

  test.each([404, 405])(
    '%i with entrega_indisponivel: said once, and "Entregar" hidden for the session',
    async (status) => {
      const fetchMock = stubFetch(() =>
        refusal(status, 'Operação não disponível.', { data: { entrega_indisponivel: true } }),
      );
      const { user, onOutcome, onClose } = setup();
      await user.keyboard('{Enter}');
      await screen.findByRole('heading', { name: 'Entrega de prêmios indisponível.' });
      expect(outcome()).toContain(
        'Este serviço de fidelidade não permite entregar prêmios no caixa.',
      );
      expect(onOutcome).toHaveBeenCalledWith({ name: 'unsupported' }, target);
      expect(handOverUnsupported()).toBe(true);
      expect(loadPendingHandOver()).toBeNull();
      expect(posts(fetchMock)).toHaveLength(1);
      expect(follows(fetchMock)).toHaveLength(0);
      await user.keyboard('{Enter}'); // "Entendi" has the focus
      expect(onClose).toHaveBeenCalledTimes(1);
    },
  );

  test('a 404 without entrega_indisponivel is a refusal in the service’s words', async () => {
    await confirmAnswered(() => refusal(404, 'Cliente não encontrado'), 'Entrega recusada.');
    expect(outcome()).toContain('Cliente não encontrado');
    expect(handOverUnsupported()).toBe(false);
  });

  test('503 (contingency): refused with a clear message, never kept, not followed', async () => {
    const { fetchMock, user, onClose } = await confirmAnswered(
      () => refusal(503, 'Serviço de fidelidade indisponível.'),
      'Serviço de fidelidade indisponível.',
    );
    expect(outcome()).toContain('O prêmio não foi entregue.');
    expect(outcome()).toContain('não fica guardada');
    expect(loadPendingHandOver()).toBeNull();
    expect(follows(fetchMock)).toHaveLength(0);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  test('while it is on its way Escape does not close it', async () => {
    let answer!: (r: Response) => void;
    stubFetch(() => new Promise<Response>((r) => (answer = r)));
    const { user, onClose } = setup();
    await user.keyboard('{Enter}');
    await screen.findByText('Entregando…');
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    answer(jsonResponse(200, handedOver));
    await screen.findByRole('heading', { name: '✓ Prêmio entregue' });
  });
});
