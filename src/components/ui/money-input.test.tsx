import { describe, expect, test } from 'vitest';
import { useState } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MAX_CENTS } from '@/lib/money';
import { MoneyInput } from './money-input';

/** A parent that keeps the amount, holding it to `cap` when given. */
function Parent({ start = 0, cap }: { start?: number; cap?: number }) {
  const [cents, setCents] = useState(start);
  return (
    <>
      <MoneyInput
        label="Valor"
        value={cents}
        onChange={(c) => setCents(cap === undefined ? c : Math.min(c, cap))}
      />
      <output>{cents}</output>
      <button type="button" onClick={() => setCents(0)}>
        Limpar
      </button>
    </>
  );
}

const field = () => screen.getByLabelText('Valor') as HTMLInputElement;
const kept = () => Number(screen.getByRole('status').textContent);

describe('MoneyInput', () => {
  test('digits fill from the cents and Backspace takes the last one, wherever the caret is', async () => {
    const user = userEvent.setup();
    render(<Parent />);
    await user.type(field(), '1050');
    expect(field().value).toBe('R$ 10,50');
    expect(kept()).toBe(1050);
    field().setSelectionRange(0, 0);
    await user.keyboard('{Backspace}');
    expect(field().value).toBe('R$ 1,05');
    expect(kept()).toBe(105);
    await user.keyboard('{Delete}{Delete}{Delete}{Delete}');
    expect(field().value).toBe('R$ 0,00');
    expect(kept()).toBe(0);
  });

  test('letters and other keys change nothing', async () => {
    const user = userEvent.setup();
    render(<Parent start={250} />);
    await user.type(field(), 'a,-');
    expect(field().value).toBe('R$ 2,50');
    expect(kept()).toBe(250);
  });

  test('a pasted amount is read by its digits', async () => {
    const user = userEvent.setup();
    render(<Parent />);
    await user.click(field());
    await user.clear(field());
    await user.paste('R$ 1.234,56');
    expect(field().value).toBe('R$ 1.234,56');
    expect(kept()).toBe(123456);
  });

  test('no digit takes the amount past the largest one', async () => {
    render(<Parent start={MAX_CENTS} />);
    fireEvent.keyDown(field(), { key: '9' });
    expect(kept()).toBe(MAX_CENTS);
    expect(field().value).toBe('R$ 100.000,00');
  });

  test('the field shows what its parent keeps: an amount it holds back, a reset', async () => {
    const user = userEvent.setup();
    render(<Parent start={500} cap={9_999} />);
    fireEvent.keyDown(field(), { key: '1' });
    expect(kept()).toBe(5001);
    expect(field().value).toBe('R$ 50,01');
    // 50.010 cents is over the parent's cap: it keeps 9.999, and so does the field.
    fireEvent.keyDown(field(), { key: '0' });
    expect(kept()).toBe(9999);
    expect(field().value).toBe('R$ 99,99');
    await user.click(screen.getByRole('button', { name: 'Limpar' }));
    expect(field().value).toBe('R$ 0,00');
  });

  test('read-only, it changes nothing', () => {
    render(<MoneyInput label="Valor" value={990} onChange={() => {}} readOnly />);
    act(() => void fireEvent.keyDown(field(), { key: '1' }));
    expect(field().value).toBe('R$ 9,90');
  });
});
