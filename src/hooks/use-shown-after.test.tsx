import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { useShownAfter } from './use-shown-after';

function Waiting({ on }: { on: boolean }) {
  const shown = useShownAfter(on, 200);
  return shown ? <p role="status">Buscando cliente…</p> : null;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('an answer within the delay never shows the wait', () => {
  const { rerender } = render(<Waiting on />);
  act(() => vi.advanceTimersByTime(199));
  expect(screen.queryByRole('status')).toBeNull();
  rerender(<Waiting on={false} />);
  act(() => vi.advanceTimersByTime(1_000));
  expect(screen.queryByRole('status')).toBeNull();
});

test('a longer wait shows once the delay has passed and goes as soon as it ends', () => {
  const { rerender } = render(<Waiting on />);
  act(() => vi.advanceTimersByTime(200));
  expect(screen.getByRole('status').textContent).toBe('Buscando cliente…');
  rerender(<Waiting on={false} />);
  expect(screen.queryByRole('status')).toBeNull();
  // A new wait starts its delay again instead of showing at once.
  rerender(<Waiting on />);
  expect(screen.queryByRole('status')).toBeNull();
  act(() => vi.advanceTimersByTime(200));
  expect(screen.getByRole('status')).not.toBeNull();
});
