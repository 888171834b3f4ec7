// The pauses of one follow of a journal entry (a posting or a hand-over), shared by both
// flows: each pause grows from its base (followPause: doubling, jittered, capped at 30 s), and
// after MAX_FOLLOW_UPS of them in a row the follow stops asking by itself.
import { MAX_FOLLOW_UPS, followPause, pause } from '@/features/points/follow';

/**
 * `wait(base)` pauses before the next follow-up and answers true, or answers false at once
 * when the follow has paused MAX_FOLLOW_UPS times already (the caller then stops and says so).
 */
export function followWaits(signal: AbortSignal): (base: number) => Promise<boolean> {
  let followUps = 0;
  return async (base) => {
    if (followUps >= MAX_FOLLOW_UPS) return false;
    await pause(followPause(base, followUps++), signal);
    return true;
  };
}
