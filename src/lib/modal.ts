// Every modal <dialog> of the app opens here, so each puts the focus where its confirmation
// expects it (Enter confirms, Esc cancels) and all behave the same.

/**
 * Opens `dialog` as a modal (unless it is already) and puts the focus on its element marked
 * `data-autofocus` (its confirm button), when that one is enabled; else on what showModal()
 * chose, the dialog's first focusable element.
 *
 * Not React's `autoFocus`: React focuses the element as it mounts, before the effect that
 * calls showModal() runs, and never writes the `autofocus` attribute showModal() would honour;
 * showModal() then moves the focus to the first focusable element, "Cancelar", and Enter
 * cancelled. jsdom does neither, so only a real browser shows it (the e2e specs do).
 *
 * A dialog the app server painted open (shown, not modal) opens modal in a task of its own:
 * opening a modal restyles the whole page, and in the task that adopts the painted page (the
 * longest of the start-up) it was a third of it. Until then the page stays inert (main.tsx
 * leaves it so while a dialog is painted open), so a tap meanwhile reaches nothing.
 */
export function openModal(dialog: HTMLDialogElement): void {
  if (dialog.open && !dialog.matches(':modal')) {
    setTimeout(() => {
      releasePaintedPage(dialog);
      // Still painted open (not closed meanwhile): open it again, modal.
      if (dialog.isConnected && dialog.open && !dialog.matches(':modal')) {
        dialog.close();
        show(dialog);
      }
    });
    return;
  }
  show(dialog);
}

function show(dialog: HTMLDialogElement): void {
  if (!dialog.matches(':modal')) dialog.showModal();
  dialog.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)')?.focus();
}

/** The painted page, inert while `dialog` was painted open in it, takes taps again. */
export function releasePaintedPage(dialog: HTMLElement): void {
  dialog.closest('[data-ssr][inert]')?.removeAttribute('inert');
}
