// The pauses of one follow of a journal entry (a posting or a hand-over), shared by both
// flows: which pause goes with which answer, each growing from its base (followPause:
// doubling, jittered, capped at 30 s), and after MAX_FOLLOW_UPS of them in a row the follow
// stops asking by itself.
import {
  MAX_FOLLOW_UPS,
  NOT_FOUND_CONFIRM_MS,
  UNKNOWN_POLL_MS,
  UNREACHABLE_RETRY_MS,
  followPause,
  pause,
} from '@/features/points/follow';

/**
 * The waits of one follow. `unknown` and `unreachable` pause before the next follow-up and
 * answer true, or answer false at once when the follow has paused MAX_FOLLOW_UPS times
 * already (the caller then stops and says so).
 */
export interface FollowWaits {
  /** The server is still checking an unknown result by itself. */
  unknown(): Promise<boolean>;
  /** Our server could not be reached. */
  unreachable(): Promise<boolean>;
  /** A request sent from here is unknown to the server: the short pause before asking again. */
  notFound(): Promise<void>;
}

export function followWaits(signal: AbortSignal): FollowWaits {
  let followUps = 0;
  const wait = async (base: number) => {
    if (followUps >= MAX_FOLLOW_UPS) return false;
    await pause(followPause(base, followUps++), signal);
    return true;
  };
  return {
    unknown: () => wait(UNKNOWN_POLL_MS),
    unreachable: () => wait(UNREACHABLE_RETRY_MS),
    notFound: () => pause(NOT_FOUND_CONFIRM_MS, signal),
  };
}
