import { describe, expect, test, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Customer } from '@/api/schemas';
import { REWARD_COUNTER_KEYS } from '#contract/wire';
import { RegisterForm } from './register-form';
import { renderWithQuery } from '@/testing/render';
import { stubServiceEachTest } from '@/testing/api';

stubServiceEachTest();

type Answer = { status: number; body: unknown };

/** Stubs fetch: each call takes the next answer (the last one repeats). */
function stubFetch(...answers: Answer[]) {
  let call = 0;
  const mock = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => {
    const answer = answers[Math.min(call++, answers.length - 1)]!;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

const sentBody = (mock: ReturnType<typeof stubFetch>, call = 0) =>
  JSON.parse(String(mock.mock.calls[call]?.[1]?.body)) as unknown;

const createdCustomer = {
  id_cliente: 77,
  nome: 'Ana Souza',
  email: 'invalido@invalido.com.br',
  data_cadastro: '2026-03-10 10:00:00',
  celular: '+5511987654321',
  cpf: '52998224725',
  data_nascimento: null,
  genero: 'NA',
  cep: null,
  endereco: null,
  bairro: null,
  cidade: null,
  uf: null,
  carteira: { saldo: 0, saldo_carencia: 0, pontos_vencidos: [], pontos_vencendo: [] },
  receita: 0,
  compras: 0,
  primeira_compra: null,
  ultima_compra: null,
  ...Object.fromEntries(REWARD_COUNTER_KEYS.map((k) => [k, 0])),
};
/** The service's 201 to a registration. */
const REGISTERED = {
  status: 201,
  body: { success: true, message: 'Cliente cadastrado', data: createdCustomer },
};

function setup(initial: { celular?: string; cpf?: string } = { celular: '(11) 98765-4321' }) {
  const props = {
    onRegistered: vi.fn<(c: Customer) => void>(),
    onOpenExisting: vi.fn<(id: number) => void>(),
    onCancel: vi.fn<() => void>(),
  };
  const user = userEvent.setup();
  renderWithQuery(<RegisterForm initial={initial} {...props} />);
  return { user, ...props };
}

const field = (name: RegExp | string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const errorText = (input: HTMLElement) =>
  document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
const submit = () => screen.getByRole('button', { name: /^Cadastrar/ });

describe('RegisterForm', () => {
  test('opens prefilled with what was typed in the search, focus on the first field', () => {
    setup({ celular: '+5511987654321', cpf: '52998224725' });
    expect(field(/Celular/).value).toBe('(11) 98765-4321');
    expect(field('CPF').value).toBe('529.982.247-25');
    expect(document.activeElement).toBe(field(/Celular/));
  });

  test('phone, CPF and CEP are formatted as typed; bairro counts characters', async () => {
    const { user } = setup({});
    await user.type(field(/Celular/), '11987654321');
    await user.type(field('CPF'), '52998224725');
    await user.type(field('CEP'), '01310100');
    await user.type(field(/Bairro/), 'Bela Vista');
    expect(field(/Celular/).value).toBe('(11) 98765-4321');
    expect(field('CPF').value).toBe('529.982.247-25');
    expect(field('CEP').value).toBe('01310-100');
    expect(screen.getByText('10/50')).toBeTruthy();
  });

  test('invalid input is caught before any request, at its field', async () => {
    const fetchMock = stubFetch({
      status: 201,
      body: { success: true, message: 'ok', data: createdCustomer },
    });
    const { user } = setup();
    await user.type(field('CPF'), '11111111111');
    await user.click(submit());
    const cpf = field('CPF');
    await waitFor(() => expect(cpf.getAttribute('aria-invalid')).toBe('true'));
    expect(errorText(cpf)).toContain('CPF inválido: dígitos verificadores não conferem.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('the birth date is typed dd/mm/aaaa and sent as YYYY-MM-DD', async () => {
    const fetchMock = stubFetch(REGISTERED);
    const { user, onRegistered } = setup();
    const date = field(/Nascimento/);
    expect(date.type).toBe('text');
    expect(date.placeholder).toBe('dd/mm/aaaa');
    await user.type(date, '17051990');
    expect(date.value).toBe('17/05/1990');
    await user.click(submit());
    await waitFor(() => expect(onRegistered).toHaveBeenCalledTimes(1));
    expect(sentBody(fetchMock)).toMatchObject({ data_nascimento: '1990-05-17' });
  });

  test('a birth date that is incomplete, does not exist or is in the future is not sent', async () => {
    const fetchMock = stubFetch(REGISTERED);
    const { user } = setup();
    const date = field(/Nascimento/);
    await user.type(date, '1705');
    await user.click(submit());
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(errorText(date)).toContain(
      'Data inválida: informe dia, mês e ano de uma data que exista.',
    );
    expect(date.value).toBe('17/05'); // nothing typed is lost
    expect(document.activeElement).toBe(date);

    await user.clear(date);
    await user.type(date, '31022000');
    await user.click(submit());
    await waitFor(() => expect(date.value).toBe('31/02/2000'));
    expect(errorText(date)).toContain('Data inválida: informe dia, mês e ano');

    await user.clear(date);
    await user.type(date, '01012999');
    await user.click(submit());
    await waitFor(() =>
      expect(errorText(date)).toContain('A data de nascimento não pode estar no futuro.'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('a 201 sends the wire body once and hands over the new customer', async () => {
    const fetchMock = stubFetch(REGISTERED);
    const { user, onRegistered } = setup();
    await user.type(field('Nome'), 'Ana Souza');
    await user.type(field('CEP'), '01310100');
    await user.selectOptions(screen.getByRole('combobox', { name: 'UF' }), 'SP');
    await user.dblClick(submit());
    await waitFor(() => expect(onRegistered).toHaveBeenCalledTimes(1));
    expect(onRegistered.mock.calls[0]![0].id_cliente).toBe(77);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toBe(
      '/api/v4/estabelecimentos/1/clientes/cadastrar',
    );
    expect(sentBody(fetchMock)).toEqual({
      celular: '+5511987654321',
      nome: 'Ana Souza',
      cep: '01310100',
      estado: 'SP',
    });
  });

  test('a 422 puts each message at its field and keeps everything typed', async () => {
    stubFetch({
      status: 422,
      body: {
        success: false,
        message: 'CEP não encontrado.',
        data: {},
        errors: { cep: ['CEP não encontrado.'], 'cliente.bairro': ['Bairro desconhecido.'] },
      },
    });
    const { user, onRegistered } = setup();
    await user.type(field('Nome'), 'Ana Souza');
    await user.type(field('CEP'), '99999999');
    await user.type(field(/Bairro/), 'Centro');
    await user.click(submit());

    const cep = field('CEP');
    await waitFor(() => expect(cep.getAttribute('aria-invalid')).toBe('true'));
    expect(errorText(cep)).toContain('CEP não encontrado.');
    expect(errorText(field(/Bairro/))).toContain('Bairro desconhecido.');
    expect(document.activeElement).toBe(cep);
    expect(screen.getByRole('alert').textContent).toContain('Confira os campos: CEP, Bairro.');
    expect(field(/Celular/).value).toBe('(11) 98765-4321');
    expect(field('Nome').value).toBe('Ana Souza');
    expect(cep.value).toBe('99999-999');
    expect(field(/Bairro/).value).toBe('Centro');
    expect(onRegistered).not.toHaveBeenCalled();
    expect(submit()).toHaveProperty('disabled', false);
  });

  test('a 422 on a path no field owns shows above the form', async () => {
    stubFetch({
      status: 422,
      body: {
        success: false,
        message: 'Estabelecimento inativo.',
        data: {},
        errors: { estabelecimento: ['Estabelecimento inativo.'] },
      },
    });
    const { user } = setup();
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Não foi possível cadastrar.');
    expect(alert.textContent).toContain('Estabelecimento inativo.');
  });

  test('a 409 offers to open the existing customer', async () => {
    stubFetch({
      status: 409,
      body: {
        success: false,
        message: 'Já existe um cliente com este celular.',
        data: { id_cliente: 5 },
      },
    });
    const { user, onOpenExisting } = setup();
    await user.type(field('Nome'), 'Ana');
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Cliente já cadastrado');
    expect(alert.textContent).toContain('Já existe um cliente com este celular.');
    const open = screen.getByRole('button', { name: 'Abrir cadastro existente' });
    expect(document.activeElement).toBe(open);
    await user.click(open);
    expect(onOpenExisting).toHaveBeenCalledWith(5);
    expect(field('Nome').value).toBe('Ana');
  });

  test('another error shows its Portuguese message and keeps the form', async () => {
    stubFetch({ status: 500, body: { success: false, message: 'Internal', data: {} } });
    const { user } = setup();
    await user.type(field('Nome'), 'Ana');
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('O serviço de fidelidade está com problemas.');
    expect(field('Nome').value).toBe('Ana');
  });

  test('Escape and "Cancelar" cancel', async () => {
    const { user, onCancel } = setup();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: /Cancelar/ }));
    expect(onCancel).toHaveBeenCalledTimes(2);
  });
});
