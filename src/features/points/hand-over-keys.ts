// What the counter reads of a hand-over at its start, kept apart from pending-hand-over.ts so
// that the counter's first load carries two storage reads and not the hand-over's code.
import { storage } from '@/features/points/pending-sale';

export const PENDING_HAND_OVER_KEY = 'pdv:entrega-pendente';
/** Set once the service said it does not take hand-overs: "Entregar" stays hidden. */
export const HAND_OVER_UNSUPPORTED_KEY = 'pdv:entrega-indisponivel';

/** A hand-over may be pending in this tab (the dialog reads it and follows it, or closes). */
export const mayResumeHandOver = (): boolean => !!storage()?.getItem(PENDING_HAND_OVER_KEY);

export const handOverUnsupported = (): boolean =>
  storage()?.getItem(HAND_OVER_UNSUPPORTED_KEY) === '1';
