import { useEffect, useEffectEvent, useState } from 'react';

interface DraftOptions {
  /** Quiet time after the last change before the value is committed. */
  delayMs: number;
  /** Typed text → committed value ("  café " → "café"). */
  normalize?: (draft: string) => string;
  /** A draft that is not valid is kept on screen and never committed. */
  isValid?: (draft: string) => boolean;
  /** Committed value → the text the field shows ("2026-05-01" → "01/05/2026"). */
  format?: (committed: string) => string;
}

const trim = (s: string) => s.trim();
const always = () => true;
const same = (s: string) => s;

/**
 * A text field over a committed value (here: a URL parameter). What is typed stays local and
 * is committed after `delayMs` of quiet, or at once with `flush()` (Enter). When the committed
 * value changes from elsewhere (Back, "Limpar filtros", a link) the field shows it; when it
 * changes because this field committed, what is typed stays as typed (a trailing space too).
 */
export function useDraft(
  committed: string,
  commit: (value: string) => void,
  { delayMs, normalize = trim, isValid = always, format = same }: DraftOptions,
) {
  const [state, setState] = useState({ base: committed, draft: format(committed) });
  let draft = state.draft;
  if (state.base !== committed) {
    draft = normalize(state.draft) === committed ? state.draft : format(committed);
    setState({ base: committed, draft });
  }

  const pending = isValid(draft) && normalize(draft) !== committed;
  const commitLatest = useEffectEvent((value: string) => commit(value));

  useEffect(() => {
    if (!pending) return;
    const value = normalize(draft);
    const timer = window.setTimeout(() => commitLatest(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [pending, draft, delayMs, normalize]);

  return {
    value: draft,
    setValue: (value: string) => setState((s) => ({ ...s, draft: value })),
    /** Commits now (Enter), if there is something valid to commit. */
    flush: () => {
      if (pending) commit(normalize(draft));
    },
    valid: isValid(draft),
  };
}
