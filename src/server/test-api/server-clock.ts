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
  /** Moves a virtual clock forward to a time (milliseconds since the epoch), as advance does. */
  set(ms: number): Promise<void>;
  readonly virtual: boolean;
}

/** Why a real clock refuses to move. */
export class RealClockError extends Error {
  constructor() {
    super("the server runs on the system clock; start it with --clock=virtual (clock: 'virtual') to move it");
    this.name = 'RealClockError';
  }
}

export function serverClock(clock: Clock): ServerClock {
  if (clock instanceof VirtualClock)
    return {
      now: () => clock.now(),
      advance: (step) => clock.advance(step),
      set: (ms) => clock.setTime(ms),
      virtual: true,
    };
  const refuse = (): Promise<void> => Promise.reject(new RealClockError());
  return { now: () => clock.now(), advance: refuse, set: refuse, virtual: false };
}
