import { describe, expect, test } from 'vitest';
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DATE_INCOMPLETE,
  DATE_NOT_REAL,
  DateField,
  dateTextError,
  dateTextToWire,
  maskDate,
  wireToDateText,
} from './date-field';

describe('maskDate', () => {
  test.each([
    ['', ''],
    ['0', '0'],
    ['01', '01'],
    ['010', '01/0'],
    ['0105', '01/05'],
    ['01052', '01/05/2'],
    ['01052026', '01/05/2026'],
    ['010520261', '01/05/2026'], // nothing past the year
    ['01/', '01/'], // the slash typed by hand stays
    ['01/05/2026', '01/05/2026'],
    ['1/5/2026', '01/05/2026'], // a one-digit day or month is padded by its separator
    ['1.5.2026', '01/05/2026'],
    ['01-05-2026', '01/05/2026'],
    ['2026-05-01', '01/05/2026'], // pasted ISO date
    ['ab01cd05', '01/05'],
    ['/', ''],
  ])('%j shows as %j', (typed, shown) => {
    expect(maskDate(typed)).toBe(shown);
  });
});

test('dateTextToWire: the wire date, empty for nothing, null for what is not a date', () => {
  expect(dateTextToWire('01/05/2026')).toBe('2026-05-01');
  expect(dateTextToWire('29/02/2024')).toBe('2024-02-29');
  expect(dateTextToWire('')).toBe('');
  expect(dateTextToWire('  ')).toBe('');
  expect(dateTextToWire('29/02/2026')).toBeNull();
  expect(dateTextToWire('01/13/2026')).toBeNull();
  expect(dateTextToWire('1/5/2026')).toBeNull(); // the field always shows two digits
  expect(dateTextToWire('01/05')).toBeNull();
});

test('wireToDateText shows a wire date as typed', () => {
  expect(wireToDateText('2026-05-01')).toBe('01/05/2026');
  expect(wireToDateText(undefined)).toBe('');
});

test('dateTextError: incomplete only once the field is left; a date that does not exist at once', () => {
  expect(dateTextError('01/05', false)).toBeNull();
  expect(dateTextError('01/05', true)).toBe(DATE_INCOMPLETE);
  expect(dateTextError('31/04/2026', false)).toBe(DATE_NOT_REAL);
  expect(dateTextError('31/05/2026', false)).toBeNull();
  expect(dateTextError('', true)).toBeNull();
});

function Harness({ initial = '' }: { initial?: string }) {
  const [text, setText] = useState(initial);
  return (
    <>
      <DateField label="Até" value={text} onValueChange={setText} />
      <output aria-label="enviado">{dateTextToWire(text) ?? 'nada'}</output>
      <button type="button">outro</button>
    </>
  );
}

describe('DateField', () => {
  test('digits typed come out as dd/mm/aaaa and the wire date follows', async () => {
    render(<Harness />);
    const field = screen.getByRole('textbox', { name: 'Até (dd/mm/aaaa)' });
    expect(field.getAttribute('type')).toBe('text');
    expect(field.getAttribute('placeholder')).toBe('dd/mm/aaaa');
    expect(field.getAttribute('inputmode')).toBe('numeric');
    await userEvent.type(field, '07032026');
    expect(field).toHaveProperty('value', '07/03/2026');
    expect(screen.getByRole('status', { name: 'enviado' }).textContent).toBe('2026-03-07');
    expect(field.getAttribute('aria-invalid')).toBeNull();
  });

  test('a date that does not exist is said at the field and nothing is sent', async () => {
    render(<Harness />);
    const field = screen.getByRole('textbox', { name: /Até/ });
    await userEvent.type(field, '30022026');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(DATE_NOT_REAL)).toBeTruthy();
    expect(field.getAttribute('aria-describedby')).toBe(
      screen.getByText(DATE_NOT_REAL).closest('p')!.id,
    );
    expect(screen.getByRole('status', { name: 'enviado' }).textContent).toBe('nada');
  });

  test('an incomplete date is reported when the field is left, and forgotten while typing again', async () => {
    render(<Harness />);
    const field = screen.getByRole('textbox', { name: /Até/ });
    await userEvent.type(field, '0705');
    expect(screen.queryByText(DATE_INCOMPLETE)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'outro' }));
    expect(screen.getByText(DATE_INCOMPLETE)).toBeTruthy();
    expect(field).toHaveProperty('value', '07/05');
    await userEvent.click(field);
    expect(screen.queryByText(DATE_INCOMPLETE)).toBeNull();
    await userEvent.type(field, '2026');
    await userEvent.tab();
    expect(screen.queryByText(DATE_INCOMPLETE)).toBeNull();
    expect(screen.getByRole('status', { name: 'enviado' }).textContent).toBe('2026-05-07');
  });

  test('backspace takes the slash away with the digit before it', async () => {
    render(<Harness initial="07/0" />);
    const field = screen.getByRole('textbox', { name: /Até/ });
    await userEvent.type(field, '{Backspace}');
    expect(field).toHaveProperty('value', '07/');
    await userEvent.type(field, '{Backspace}');
    expect(field).toHaveProperty('value', '07');
  });

  test('a digit changed in the middle keeps the caret after it', async () => {
    render(<Harness initial="01/05/2026" />);
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: /Até/ });
    await userEvent.type(field, '9', { initialSelectionStart: 4, initialSelectionEnd: 5 });
    expect(field.value).toBe('01/09/2026');
    expect(field.selectionStart).toBe(5);
    await userEvent.type(field, '{Backspace}', {
      initialSelectionStart: 2,
      initialSelectionEnd: 2,
    });
    expect(field.value).toBe('0/09/2026'); // the rest stays where it was
    expect(field.selectionStart).toBe(1);
    await userEvent.type(field, '3', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(field.value).toBe('03/09/2026');
    expect(field.selectionStart).toBe(2);
  });
});
