import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => cleanup());

// AbortSignal.timeout runs on the environment's own clock, which vi.useFakeTimers() does not
// reach. Back it by setTimeout (real or faked, whichever is installed when it is called) so a
// test can advance the clock to a request's timeout.
AbortSignal.timeout = (ms: number) => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('signal timed out', 'TimeoutError')), ms);
  return controller.signal;
};

// jsdom has no modal dialogs: showModal and close only toggle `open` (and close says so).
HTMLDialogElement.prototype.showModal = function () {
  this.setAttribute('open', '');
};
HTMLDialogElement.prototype.close = function () {
  this.removeAttribute('open');
  this.dispatchEvent(new Event('close'));
};
