import { describe, expect, test, vi } from 'vitest';
import { Profiler } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Customer } from '@/api/schemas';
import { customerOf, customerWire, okJson, sentBody, stubFetch } from '@/testing/fixtures';
import { fieldRefusal, refusal, stubServiceEachTest } from '@/testing/api';
import type { PostingDeps } from '@/features/points/posting-types';
import { usePosting } from '@/features/points/use-posting';
import { SalePanel } from './sale-panel';
import { renderWithQuery } from '@/testing/render';

stubServiceEachTest();

const PONTUAR = '/api/v4/estabelecimentos/1/fidelidade/pontuar';
const maria = customerOf();
const answer = { id_cliente: 42, id_ponto: 777, saldo_atual: 130, saldo_carencia: 0 };

/** The service: pontuar answers `pontuar()`, any re-read answers Maria. */
function service(pontuar: () => Response = () => okJson(answer)) {
  return stubFetch((url) => (url === PONTUAR ? pontuar() : okJson(customerWire({ compras: 4 }))));
}
const posts = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => String(url) === PONTUAR).length;

function Harness(props: {
  customer: Customer | null;
  password: string | null;
  newCustomer?: { celular?: string; cpf?: string };
  unavailable?: boolean;
  deps: PostingDeps;
}) {
  const posting = usePosting(props.deps);
  return (
    <SalePanel
      customer={props.customer}
      newCustomer={props.newCustomer}
      unavailable={props.unavailable}
      password={props.password}
      posting={posting}
    />
  );
}

/** The panel for Maria with the password typed, unless `props` says otherwise. */
function setup({
  customer = maria,
  password = '1234',
  ...props
}: Partial<Omit<Parameters<typeof Harness>[0], 'deps'>> = {}) {
  const deps = {
    reread: vi.fn(async () => customerOf({ compras: 4 })),
    onPasswordRejected: vi.fn(),
  };
  const user = userEvent.setup();
  renderWithQuery(<Harness customer={customer} password={password} {...props} deps={deps} />);
  return { user, deps };
}

/** The panel for a customer not yet registered, found by the phone typed in the search. */
const setupNewCustomer = (extra: Parameters<typeof setup>[0] = {}) =>
  setup({ customer: null, newCustomer: { celular: '(11) 91234-5678' }, ...extra });

const amount = () => screen.getByLabelText('Valor da compra') as HTMLInputElement;
const postButton = () => screen.getByRole('button', { name: /^Lançar/ }) as HTMLButtonElement;
const item = (n: number) => within(screen.getByRole('listitem', { name: `Item ${n}` }));
const errorOf = (input: HTMLElement) =>
  document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '';

/** Types `cents` as the amount and posts the sale: the body of the one request it sent. */
async function postOnce(
  user: ReturnType<typeof userEvent.setup>,
  fetchMock: ReturnType<typeof stubFetch>,
  cents: string,
) {
  await user.type(amount(), cents);
  await user.click(postButton());
  await waitFor(() => expect(posts(fetchMock)).toBe(1));
  return sentBody(fetchMock, 0);
}

async function addLine(
  user: ReturnType<typeof userEvent.setup>,
  n: number,
  line: { descricao: string; qtde?: string; unit: string },
) {
  await user.click(screen.getByRole('button', { name: /Adicionar item/ }));
  await user.type(item(n).getByLabelText('Descrição'), line.descricao);
  if (line.qtde) {
    await user.clear(item(n).getByLabelText('Qtd.'));
    await user.type(item(n).getByLabelText('Qtd.'), line.qtde);
  }
  await user.type(item(n).getByLabelText('Preço unit.'), line.unit);
}

describe('SalePanel', () => {
  test('the amount fills from the cents and the post button names it', async () => {
    const { user } = setup();
    await user.type(amount(), '1050');
    expect(amount().value).toBe('R$ 10,50');
    // The button's amount follows once the key's frame is drawn.
    await waitFor(() => expect(postButton().textContent).toContain('Lançar R$ 10,50'));
    await user.type(amount(), '{Backspace}');
    expect(amount().value).toBe('R$ 1,05');
  });

  test('a digit draws nothing but the field in its frame; the button follows a task later', async () => {
    const commits: string[] = [];
    const deps = { reread: vi.fn(async () => maria), onPasswordRejected: vi.fn() };
    renderWithQuery(
      <Profiler id="sale" onRender={(_id, phase) => commits.push(phase)}>
        <Harness customer={maria} password="1234" deps={deps} />
      </Profiler>,
    );
    const field = amount();
    await waitFor(() => expect(field.readOnly).toBe(false));
    // The first digit makes the sale postable: the button is enabled in the key's own task,
    // so that Enter right after it posts.
    fireEvent.keyDown(field, { key: '1' });
    expect(field.value).toBe('R$ 0,01');
    expect(postButton().disabled).toBe(false);
    await waitFor(() => expect(postButton().textContent).toContain('Lançar R$ 0,01'));
    for (const [i, digit] of [...'050'].entries()) {
      commits.length = 0;
      fireEvent.keyDown(field, { key: digit });
      expect(field.value).toBe(['R$ 0,10', 'R$ 1,05', 'R$ 10,50'][i]);
      expect(commits).toEqual([]);
    }
    await waitFor(() => expect(postButton().textContent).toContain('Lançar R$ 10,50'));
    // Back to nothing: blocked at once, the reason follows.
    for (let i = 0; i < 4; i++) fireEvent.keyDown(field, { key: 'Backspace' });
    expect(field.value).toBe('R$ 0,00');
    expect(postButton().disabled).toBe(true);
    expect(
      await screen.findByText('Digite o valor da compra.', { selector: '#post-block-reason' }),
    ).toBeTruthy();
  });

  test('with no amount the post button is disabled and says why', () => {
    setup();
    expect(postButton().disabled).toBe(true);
    expect(postButton().getAttribute('aria-describedby')).toBe('post-block-reason');
    expect(document.getElementById('post-block-reason')?.textContent).toBe(
      'Digite o valor da compra.',
    );
  });

  test('a basket that does not add up keeps the post button disabled, with the difference', async () => {
    const fetchMock = service();
    const { user } = setup();
    await user.type(amount(), '3000');
    await addLine(user, 1, { descricao: 'Café', qtde: '2', unit: '800' });
    expect(item(1).getByLabelText('Total do item 1').textContent).toBe('R$ 16,00');
    expect(screen.getByText('Total dos itens:').textContent).toContain('R$ 16,00');
    expect(screen.getByText('faltam R$ 14,00')).toBeTruthy();
    expect(postButton().disabled).toBe(true);
    // The reason under the button follows the frame.
    await waitFor(() =>
      expect(document.getElementById('post-block-reason')?.textContent).toBe(
        'Faltam R$ 14,00 nos itens para fechar o valor da compra.',
      ),
    );
    await user.keyboard('{Enter}');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('F8 copies the basket total into the amount, which unblocks posting', async () => {
    const { user } = setup();
    await user.type(amount(), '3000');
    await addLine(user, 1, { descricao: 'Café', qtde: '2', unit: '800' });
    await user.keyboard('{F8}');
    expect(amount().value).toBe('R$ 16,00');
    expect(postButton().disabled).toBe(false);
    expect(screen.getByText('✓ fecha com o valor')).toBeTruthy();
  });

  test('F4 adds a basket line with the focus in its description', async () => {
    const { user } = setup();
    await user.type(amount(), '500');
    await user.keyboard('{F4}');
    expect(document.activeElement).toBe(item(1).getByLabelText('Descrição'));
    await user.keyboard('{F4}');
    expect(document.activeElement).toBe(item(2).getByLabelText('Descrição'));
  });

  test('removing a line updates the total', async () => {
    const { user } = setup();
    await user.type(amount(), '1000');
    await addLine(user, 1, { descricao: 'A', unit: '1000' });
    await addLine(user, 2, { descricao: 'B', unit: '500' });
    expect(postButton().disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remover item 2' }));
    expect(screen.queryByRole('listitem', { name: 'Item 2' })).toBeNull();
    expect(postButton().disabled).toBe(false);
  });

  test('a double click sends one request with the amount in cents and line totals', async () => {
    const fetchMock = service();
    const { user } = setup();
    await user.type(amount(), '3100');
    await addLine(user, 1, { descricao: 'Café', qtde: '2', unit: '800' });
    await addLine(user, 2, { descricao: 'Pão de queijo', unit: '1500' });
    await user.dblClick(postButton());
    await waitFor(() => expect(posts(fetchMock)).toBe(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(posts(fetchMock)).toBe(1);
    expect(sentBody(fetchMock, 0)).toEqual({
      valor_gasto: 3100,
      senha_atendente: '1234',
      cliente: { celular: '+5511987654321' },
      itens: [
        { descricao: 'Café', qtde: 2, valor: 1600 },
        { descricao: 'Pão de queijo', qtde: 1, valor: 1500 },
      ],
    });
  });

  test('with the shift closed (no password) nothing is sent', async () => {
    const fetchMock = service();
    const { user } = setup({ password: null });
    await user.type(amount(), '1000');
    await user.click(postButton());
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('a 422 on itens.1.valor lands on the second line’s price and keeps what was typed', async () => {
    service(() => fieldRefusal('itens.1.valor', 'Valor do item acima do permitido.'));
    const { user } = setup();
    await user.type(amount(), '3100');
    await addLine(user, 1, { descricao: 'Café', qtde: '2', unit: '800' });
    await addLine(user, 2, { descricao: 'Pão de queijo', unit: '1500' });
    await user.click(postButton());
    const price2 = item(2).getByLabelText('Preço unit.');
    await waitFor(() => expect(price2.getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(price2)).toContain('Valor do item acima do permitido.');
    expect(item(1).getByLabelText('Preço unit.').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('O serviço recusou o lançamento');
    expect((item(2).getByLabelText('Descrição') as HTMLInputElement).value).toBe('Pão de queijo');
    expect(amount().value).toBe('R$ 31,00');
  });

  test('a 422 on valor_gasto lands on the amount', async () => {
    service(() => fieldRefusal('valor_gasto', 'O valor gasto deve ser de no máximo R$ 50.000,00.'));
    const { user } = setup();
    await user.type(amount(), '6000000');
    await user.click(postButton());
    await waitFor(() => expect(amount().getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(amount())).toContain('O valor gasto deve ser de no máximo R$ 50.000,00.');
    expect(amount().value).toBe('R$ 60.000,00');
    expect(document.activeElement).toBe(amount());
  });

  test('a wrong attendant password asks for it again and keeps the sale', async () => {
    const fetchMock = service(() =>
      fieldRefusal('senha_atendente', 'Senha do atendente incorreta.'),
    );
    const { user, deps } = setup();
    await user.type(amount(), '1200');
    await addLine(user, 1, { descricao: 'Refrigerante lata', unit: '1200' });
    await user.click(postButton());
    await waitFor(() => expect(deps.onPasswordRejected).toHaveBeenCalledTimes(1));
    expect(posts(fetchMock)).toBe(1);
    expect(amount().value).toBe('R$ 12,00');
    expect(amount().getAttribute('aria-invalid')).toBeNull();
    expect((item(1).getByLabelText('Descrição') as HTMLInputElement).value).toBe(
      'Refrigerante lata',
    );
    expect(postButton().disabled).toBe(false);
  });

  test('five postings of this caixa already in flight: the counter says so and keeps the sale', async () => {
    let refuse = true;
    const fetchMock = service(() =>
      refuse
        ? refusal(429, 'Há 5 lançamentos deste caixa em andamento.', { data: { em_andamento: 5 } })
        : okJson(answer),
    );
    const { user } = setup();
    await user.type(amount(), '1200');
    await addLine(user, 1, { descricao: 'Refrigerante lata', unit: '1200' });
    await user.click(postButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Lançamentos em andamento neste caixa.');
    expect(alert.textContent).toContain(
      'Há 5 lançamentos deste caixa em andamento. Aguarde um deles terminar e lance de novo.',
    );
    expect(alert.textContent).not.toContain('Senha');
    expect(amount().value).toBe('R$ 12,00');
    expect((item(1).getByLabelText('Descrição') as HTMLInputElement).value).toBe(
      'Refrigerante lata',
    );
    refuse = false;
    await user.click(postButton());
    await waitFor(() => expect(posts(fetchMock)).toBe(2));
    await waitFor(() => expect(screen.queryByText(/em andamento neste caixa/)).toBeNull());
  });

  test('a customer not yet registered is registered and posted in one request', async () => {
    const fetchMock = service(() => okJson({ ...answer, id_cliente: 501, saldo_atual: 5 }));
    const { user } = setupNewCustomer();
    expect(screen.getByRole('heading', { name: 'Cadastrar e lançar pontos' })).toBeTruthy();
    expect(screen.getByText('(11) 91234-5678')).toBeTruthy();
    expect(await postOnce(user, fetchMock, '500')).toEqual({
      valor_gasto: 500,
      senha_atendente: '1234',
      cliente: { celular: '+5511912345678' },
    });
  });

  test('the service unavailable: the sale goes by the phone alone, with no registration form', async () => {
    const fetchMock = service();
    const { user } = setupNewCustomer({
      newCustomer: { celular: '(11) 91234-5678', cpf: '' },
      unavailable: true,
    });
    expect(screen.getByRole('heading', { name: 'Lançar pontos' })).toBeTruthy();
    expect(screen.getByText(/a venda é guardada e lançada quando o serviço voltar/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Preencher nome, CPF e endereço' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Dados do novo cliente' })).toBeNull();
    expect(await postOnce(user, fetchMock, '2590')).toEqual({
      valor_gasto: 2590,
      senha_atendente: '1234',
      cliente: { celular: '+5511912345678' },
    });
  });

  test('a new customer’s optional fields travel with the posting', async () => {
    const fetchMock = service();
    const { user } = setupNewCustomer();
    await user.click(screen.getByRole('button', { name: 'Preencher nome, CPF e endereço' }));
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'Ana Souza');
    await user.type(screen.getByRole('textbox', { name: 'CPF' }), '52998224725');
    expect(await postOnce(user, fetchMock, '500')).toMatchObject({
      cliente: { celular: '+5511912345678', nome: 'Ana Souza', cpf: '52998224725' },
    });
  });

  test('a new customer with an invalid CPF is stopped at the field before any request', async () => {
    const fetchMock = service();
    const { user } = setupNewCustomer();
    await user.click(screen.getByRole('button', { name: 'Preencher nome, CPF e endereço' }));
    const cpf = screen.getByRole('textbox', { name: 'CPF' });
    await user.type(cpf, '11111111111');
    await user.type(amount(), '500');
    await user.click(postButton());
    await waitFor(() => expect(cpf.getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(cpf)).toContain('CPF inválido');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
