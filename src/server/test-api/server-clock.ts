// The clock a test holds: the server's own clock, which a virtual one lets the test move forward.
import { VirtualClock, type Clock, type ClockStep } from '../../machinery/time/clock.js';

export interface ServerClock {
  /** Milliseconds since the Unix epoch, as the server reads them. */
  now(): number;
  /**
   * Moves a virtual clock forward, firing the server's timers that fall due (TTL sweeps, compaction)
   * in order; resolves once each has run. A real clock refuses: the system's time is not ours to move.
   */
  advance(step: ClockStep): Promise<void>;
  readonly virtual: boolean;
}

export function serverClock(clock: Clock): ServerClock {
  if (clock instanceof VirtualClock)
    return { now: () => clock.now(), advance: (step) => clock.advance(step), virtual: true };
  return {
    now: () => clock.now(),
    advance: () =>
      Promise.reject(
        new Error("the server runs on the system clock; start it with clock: 'virtual' to advance it"),
      ),
    virtual: false,
  };
}
