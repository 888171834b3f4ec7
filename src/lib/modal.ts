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
 */
export function openModal(dialog: HTMLDialogElement): void {
  if (!dialog.matches(':modal')) {
    if (dialog.open) dialog.close(); // painted open by the app server: open it again, modal
    dialog.showModal();
  }
  dialog.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)')?.focus();
}
