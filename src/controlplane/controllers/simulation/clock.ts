// The one source of time of the simulated cluster: every simulated controller reads `now` and sets
// its timers through this; the server passes its own clock (--clock), so a virtual one drives them.
import type { Clock } from '../../../machinery/time/clock.js';

export interface SimClock {
  now(): number;
  /** Runs `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: SimClock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref();
    return () => {
      clearTimeout(timer);
    };
  },
};

/** The server's clock as the simulated controllers use it. */
export function simClockOf(clock: Clock): SimClock {
  return {
    now: () => clock.now(),
    after: (ms, fn) => {
      const timer = clock.setTimeout(fn, Math.max(0, ms));
      return () => {
        timer.cancel();
      };
    },
  };
}

/** RFC 3339 at second precision, as metav1.Time is written. */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
