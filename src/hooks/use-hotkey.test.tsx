import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect, test } from 'vitest';
import { useHotkey } from './use-hotkey';

function Counter({ enabled = true }: { enabled?: boolean }) {
  const [n, setN] = useState(0);
  // The handler reads the current render's state: no stale closure after re-renders.
  useHotkey('F4', () => setN(n + 1), enabled);
  return <output aria-label="contagem">{n}</output>;
}

test('the key runs the newest handler and its browser default is prevented', async () => {
  render(<Counter />);
  const user = userEvent.setup();
  await user.keyboard('{F4}{F4}{F4}');
  expect(screen.getByRole('status', { name: 'contagem' }).textContent).toBe('3');
  const event = new KeyboardEvent('keydown', { key: 'F4', cancelable: true });
  window.dispatchEvent(event);
  expect(event.defaultPrevented).toBe(true);
});

test('a disabled hotkey leaves the key alone', async () => {
  render(<Counter enabled={false} />);
  await userEvent.setup().keyboard('{F4}');
  expect(screen.getByRole('status', { name: 'contagem' }).textContent).toBe('0');
  const event = new KeyboardEvent('keydown', { key: 'F4', cancelable: true });
  window.dispatchEvent(event);
  expect(event.defaultPrevented).toBe(false);
});
