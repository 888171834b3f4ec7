import { describe, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { classifyTyped, CustomerSearch, formatLookupTyping } from './customer-search';

describe('formatLookupTyping', () => {
  test('formats a phone as it is typed', () => {
    expect(formatLookupTyping('1198765')).toBe('(11) 98765');
    expect(formatLookupTyping('11987654321')).toBe('(11) 98765-4321');
    expect(formatLookupTyping('+5511987654321')).toBe('+55 11 98765-4321');
  });
  test('shows 11 digits that are a CPF and no mobile as a CPF', () => {
    expect(formatLookupTyping('52998224725')).toBe('529.982.247-25');
  });
  test('leaves #id and text with letters as typed', () => {
    expect(formatLookupTyping('#12')).toBe('#12');
    expect(formatLookupTyping('abc')).toBe('abc');
  });
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

describe('CustomerSearch', () => {
  test('says what it understood and searches on Enter', async () => {
    const onSearch = vi.fn();
    render(<CustomerSearch onSearch={onSearch} />);
    const field = screen.getByLabelText(/buscar cliente/i);
    await userEvent.type(field, '52998224725');
    expect(screen.getByText('CPF 529.982.247-25')).toBeTruthy();
    await userEvent.type(field, '{Enter}');
    expect(onSearch).toHaveBeenCalledWith({ kind: 'cpf', cpf: '52998224725' }, expect.anything());
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
});
