import { describe, expect, test, vi } from 'vitest';
import { Profiler } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterPaint } from '@/hooks/use-after-paint';
import { isValidCpf } from '@/lib/cpf';
import { classifyLookup } from '@/lib/lookup';
import { parsePhoneBR } from '@/lib/phone';
import { autoSearch, classifyTyped, CustomerSearch, formatLookupTyping } from './customer-search';
import { testEachTable } from '@/testing/cases';

/** The frame after a key has been drawn, and the work the field leaves for after it. */
const nextFrame = () => act(() => new Promise<void>((resolve) => afterPaint(resolve)));

// libphonenumber's reading of a phone, counted (and done as it is).
vi.mock('@/lib/phone', async (actual) => {
  const phone = await actual<typeof import('@/lib/phone')>();
  return { ...phone, parsePhoneBR: vi.fn(phone.parsePhoneBR) };
});

/** Maria's mobile (sandbox demo data); its 11 digits are no valid CPF. */
const MARIA = '11987654321';
/** A mobile whose 11 digits are also a CPF with valid check digits: read two ways. */
const PHONE_AND_CPF = '11987654374';
/** A CPF that may be the start of "0 11 9xxxx-xxxx" (trunk prefix, DDD, the mobile's 9). */
const CPF_OR_TRUNK_PHONE = '01190000083';

describe('formatLookupTyping', () => {
  testEachTable([
    [
      'formats a phone as it is typed',
      formatLookupTyping,
      [
        ['1198765', '(11) 98765'],
        ['11987654321', '(11) 98765-4321'],
        ['+5511987654321', '+55 11 98765-4321'],
      ],
    ],
    [
      'shows 11 digits that are a CPF and no mobile as a CPF',
      formatLookupTyping,
      [['52998224725', '529.982.247-25']],
    ],
    [
      'keeps every digit typed past a complete phone or CPF',
      formatLookupTyping,
      [
        ['(11) 98765-43219', '119876543219'],
        ['529.982.247-251', '529982247251'],
        ['+55 11 98765-43219', '+55119876543219'],
        // A trunk 0 and 11 digits is still a phone.
        ['011987654321', '(11) 98765-4321'],
      ],
    ],
    [
      'leaves #id and text with letters as typed',
      formatLookupTyping,
      [
        ['#12', '#12'],
        ['abc', 'abc'],
      ],
    ],
  ]);
});

describe('classifyTyped', () => {
  test('reads through our own phone formatting', () => {
    expect(classifyTyped('(12)')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('#'),
    });
    expect(classifyTyped('(11) 98765-4321')).toEqual({
      kind: 'phone',
      celular: '+5511987654321',
      display: '(11) 98765-4321',
    });
  });
});

describe('autoSearch', () => {
  test('the fixtures are what they claim', () => {
    expect(isValidCpf(MARIA)).toBe(false);
    expect(isValidCpf(PHONE_AND_CPF)).toBe(true);
    expect(classifyLookup(PHONE_AND_CPF).kind).toBe('phone');
    expect(isValidCpf(CPF_OR_TRUNK_PHONE)).toBe(true);
  });
  test('a complete mobile searches by itself, an incomplete one does not', () => {
    expect(autoSearch('(11) 98765-4321')).toMatchObject({
      kind: 'phone',
      celular: '+5511987654321',
    });
    expect(autoSearch('+55 11 98765-4321')).toMatchObject({ kind: 'phone' });
    expect(autoSearch('(11) 98765-432')).toBeNull();
    expect(autoSearch('(11) 3456-7890')).toBeNull(); // a landline: Enter says why
  });
  test('a CPF with valid check digits searches by itself, a wrong one does not', () => {
    expect(autoSearch('529.982.247-25')).toMatchObject({ kind: 'cpf', cpf: '52998224725' });
    expect(autoSearch('529.982.247-24')).toBeNull();
  });
  test('eleven digits read two ways wait for Enter', () => {
    expect(autoSearch(formatLookupTyping(PHONE_AND_CPF))).toBeNull();
    expect(autoSearch(formatLookupTyping(CPF_OR_TRUNK_PHONE))).toBeNull();
    // "55 11 9876543…" typed without "+": the start of +55 11 98765-4321 (DDD 55 reads too).
    expect(autoSearch('55119876543')).toBeNull();
    expect(autoSearch('5511987654321')).toMatchObject({ celular: '+5511987654321' });
  });
  test('a customer code never searches by itself', () => {
    expect(autoSearch('#123')).toBeNull();
  });
});

describe('CustomerSearch', () => {
  test('a complete mobile searches at its last digit, once, with no Enter', async () => {
    const onSearch = vi.fn();
    const onEdit = vi.fn();
    render(<CustomerSearch onSearch={onSearch} onEdit={onEdit} />);
    const field = screen.getByLabelText(/buscar cliente/i) as HTMLInputElement;
    await userEvent.type(field, MARIA.slice(0, 10));
    expect(onSearch).not.toHaveBeenCalled();
    await userEvent.type(field, MARIA.slice(10));
    expect(onSearch).toHaveBeenCalledTimes(1);
    // It left: nothing says to press Enter.
    expect(screen.queryByText(/Enter para buscar/)).toBeNull();
    expect(onSearch).toHaveBeenCalledWith(
      { kind: 'phone', celular: '+5511987654321' },
      expect.objectContaining({ kind: 'phone' }),
    );
    expect(onEdit).toHaveBeenCalledTimes(11);
    // Typing on: the digit stays in the field, and nothing more is searched.
    await userEvent.type(field, '7');
    expect(field.value).toBe('119876543217');
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(screen.getByText(/dígitos a mais/)).toBeTruthy();
    // Taking it back completes the same phone again: searched again (a fresh balance).
    await userEvent.type(field, '{Backspace}');
    expect(field.value).toBe('(11) 98765-4321');
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  test('a mobile that is also a valid CPF waits for Enter, says so, and Enter reads a phone', async () => {
    const onSearch = vi.fn();
    render(<CustomerSearch onSearch={onSearch} />);
    const field = screen.getByLabelText(/buscar cliente/i);
    await userEvent.type(field, PHONE_AND_CPF);
    expect(onSearch).not.toHaveBeenCalled();
    // The line under the field follows a frame after the key.
    expect(await screen.findByText(/Enter para buscar/)).toBeTruthy();
    await userEvent.type(field, '{Enter}');
    expect(onSearch).toHaveBeenCalledWith(
      { kind: 'phone', celular: `+55${PHONE_AND_CPF}` },
      expect.anything(),
    );
  });

  test('a CPF searches by itself once its check digits match', async () => {
    const onSearch = vi.fn();
    render(<CustomerSearch onSearch={onSearch} />);
    await userEvent.type(screen.getByLabelText(/buscar cliente/i), '52998224725');
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith({ kind: 'cpf', cpf: '52998224725' }, expect.anything());
  });

  test('says what it understood and searches on Enter', async () => {
    const onSearch = vi.fn();
    render(<CustomerSearch onSearch={onSearch} />);
    const field = screen.getByLabelText(/buscar cliente/i);
    await userEvent.type(field, '#42');
    expect(await screen.findByText('Código do cliente #42')).toBeTruthy();
    // The line under the field follows a frame after the key.
    expect(await screen.findByText(/Enter para buscar/)).toBeTruthy();
    expect(onSearch).not.toHaveBeenCalled();
    await userEvent.type(field, '{Enter}');
    expect(onSearch).toHaveBeenCalledWith({ kind: 'id', id_cliente: 42 }, expect.anything());
  });

  test('invalid input says why and sends nothing', async () => {
    const onSearch = vi.fn();
    render(<CustomerSearch onSearch={onSearch} />);
    await userEvent.type(screen.getByLabelText(/buscar cliente/i), '111.111.111-11{Enter}');
    expect(screen.getByRole('alert').textContent).toContain('CPF inválido');
    expect(onSearch).not.toHaveBeenCalled();
  });

  test('Backspace over a formatting character removes the digit before it', async () => {
    render(<CustomerSearch onSearch={vi.fn()} />);
    const field = screen.getByLabelText(/buscar cliente/i) as HTMLInputElement;
    await userEvent.type(field, '11');
    expect(field.value).toBe('(11)');
    await userEvent.type(field, '{Backspace}');
    expect(field.value).toBe('(1');
  });

  test('a key reads the typed phone once (libphonenumber), however many parts show it', async () => {
    render(<CustomerSearch onSearch={vi.fn()} />);
    const field = screen.getByLabelText(/buscar cliente/i) as HTMLInputElement;
    await userEvent.type(field, MARIA.slice(0, 9));
    await nextFrame(); // the hint of the ninth digit
    vi.mocked(parsePhoneBR).mockClear();
    // The tenth digit: a phone to read (the field, its hint and the search it may start).
    await userEvent.type(field, MARIA.slice(9, 10));
    expect(field.value).toBe('(11) 98765-432');
    await nextFrame();
    expect(parsePhoneBR).toHaveBeenCalledTimes(1);
    // The eleventh: formatted, read, searched by itself, hinted; still one reading.
    vi.mocked(parsePhoneBR).mockClear();
    await userEvent.type(field, MARIA.slice(10));
    expect(field.value).toBe('(11) 98765-4321');
    expect(await screen.findByText('Celular (11) 98765-4321')).toBeTruthy();
    expect(parsePhoneBR).toHaveBeenCalledTimes(1);
  });

  test("a key's own frame renders nothing: the field shows the digit, the line under it follows", async () => {
    const commits: string[] = [];
    const onSearch = vi.fn();
    render(
      <Profiler id="search" onRender={(_id, phase) => commits.push(phase)}>
        <CustomerSearch onSearch={onSearch} />
      </Profiler>,
    );
    const field = screen.getByLabelText(/buscar cliente/i) as HTMLInputElement;
    commits.length = 0;
    for (const [i, digit] of [...MARIA.slice(0, 10)].entries()) {
      // The key's task: the field is formatted, and React drew nothing.
      fireEvent.keyDown(field, { key: digit });
      expect(field.value).toBe(formatLookupTyping(MARIA.slice(0, i + 1)));
      expect(commits).toEqual([]);
      // A task later, the line under the field says what it understood.
      await waitFor(() => expect(commits.length).toBeGreaterThan(0));
      commits.length = 0;
    }
    // The last digit: searched at once; the line under the field says what, after.
    fireEvent.keyDown(field, { key: MARIA.slice(10) });
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Celular (11) 98765-4321')).toBeTruthy();
    // A key that makes an error shows it in its own frame.
    fireEvent.keyDown(field, { key: '7' });
    expect(field.value).toBe('119876543217');
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });

  test('a digit typed inside the text or over a selection is formatted as well', async () => {
    render(<CustomerSearch onSearch={vi.fn()} />);
    const field = screen.getByLabelText(/buscar cliente/i) as HTMLInputElement;
    await userEvent.type(field, '1987654321');
    expect(field.value).toBe('(19) 8765-4321');
    // The DDD's first digit was missing: typed after "(".
    await userEvent.type(field, '1', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(field.value).toBe('(11) 98765-4321');
    // Everything selected, then a digit: it replaces the text.
    await userEvent.type(field, '5', { initialSelectionStart: 0, initialSelectionEnd: 15 });
    expect(field.value).toBe('(5');
  });
});
