// The one source of time of the simulated cluster: every simulated controller reads `now` and sets
// its timers through this. It is a view of the server's own clock (machinery/time/clock.ts), so a
// virtual clock advanced by a test moves the kubelets, the leases and the CronJob schedules too.
import { systemClock, type Clock } from '../../../machinery/time/clock.js';

export interface SimClock {
  now(): number;
  /** Runs `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/** The server's clock as the simulated cluster uses it. */
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

export const realClock: SimClock = simClockOf(systemClock);

/** RFC 3339 at second precision, as metav1.Time is written. */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Runs `fn` now and then every `periodMs` of `clock`, until the function returned is called. */
export function periodically(clock: SimClock, periodMs: number, fn: () => void): () => void {
  let stopped = false;
  let cancel: (() => void) | undefined;
  const tick = (): void => {
    if (stopped) return;
    fn();
    cancel = clock.after(periodMs, tick);
  };
  tick();
  return () => {
    stopped = true;
    cancel?.();
  };
}
