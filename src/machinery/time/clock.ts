// One clock per server (k8s.io/utils/clock's Clock and its fake): every cluster-visible time Capstan
// reads (timestamps, TTL expiry, compaction age) and the timers of its background loops go through
// it. The system clock is the default; a virtual clock stands still until a test advances it, and
// then fires the timers that fell due, in order of their due time.
import { parseGoDuration } from './go-duration.js';

export interface ClockTimer {
  cancel(): void;
}

/** Time and timers; the system's, or a test's. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Runs `fn` once after `ms`. A background timer: it does not keep the process alive, unless
   * `keepAlive` (work a caller waits for, such as a watch's timeout).
   */
  setTimeout(fn: () => void, ms: number, opts?: { readonly keepAlive?: boolean }): ClockTimer;
  /** Runs `fn` every `ms`. A background timer: it does not keep the process alive. */
  setInterval(fn: () => void, ms: number): ClockTimer;
}

export const clockKinds = ['real', 'virtual'] as const;
export type ClockKind = (typeof clockKinds)[number];

/** Node's longest timer (2^31 - 1 ms, ~24.8 days); a longer one fires after 1 ms, with a warning. */
export const longestNodeTimerMs = 2 ** 31 - 1;

/** How `longTimeout` waits: `keepAlive` as for `Clock.setTimeout`; `longest`, one Node timer's longest. */
export interface LongTimeoutOptions {
  readonly keepAlive?: boolean;
  readonly longest?: number;
}

/**
 * A Node timer for any delay: one longer than Node's longest waits in steps of at most that, so a
 * watch asked to last years (timeoutSeconds) does not end at once.
 */
export function longTimeout(fn: () => void, ms: number, opts: LongTimeoutOptions = {}): ClockTimer {
  const longest = opts.longest ?? longestNodeTimerMs;
  let t: NodeJS.Timeout;
  const arm = (left: number): void => {
    t =
      left > longest
        ? setTimeout(() => {
            arm(left - longest);
          }, longest)
        : setTimeout(fn, left);
    if (opts.keepAlive !== true) t.unref();
  };
  arm(ms);
  return {
    cancel: () => {
      clearTimeout(t);
    },
  };
}

/** The system clock, with unreferenced Node timers. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number, opts?: { readonly keepAlive?: boolean }): ClockTimer =>
    longTimeout(fn, ms, opts),
  setInterval: (fn: () => void, ms: number): ClockTimer => {
    const t = setInterval(fn, ms);
    t.unref();
    return {
      cancel: () => {
        clearInterval(t);
      },
    };
  },
});

/** `advance`'s argument: milliseconds, or a Go duration such as `31s` or `1h30m`. */
export type ClockStep = number | string;

export function clockStepMs(step: ClockStep): number {
  const ms = typeof step === 'number' ? step : parseGoDuration(step);
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`a clock only goes forward, not by ${String(step)}`);
  return ms;
}

interface Scheduled {
  readonly seq: number;
  due: number;
  readonly periodMs: number;
  readonly fn: () => void;
}

/** The event loop's next turn: what a fired timer started (storage writes) runs before the next one. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when told. Timers fire in order of due time (then of creation); an
 * interval that missed several periods in one step fires once for them and again at the last
 * period inside the step, as a Go ticker drops ticks nobody read.
 */
export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #timers = new Set<Scheduled>();
  #advancing: Promise<void> = Promise.resolve();

  constructor(startMs: number = Date.now()) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): ClockTimer {
    return this.#schedule(fn, ms, 0);
  }

  setInterval(fn: () => void, ms: number): ClockTimer {
    return this.#schedule(fn, ms, Math.max(1, ms));
  }

  /** Timers waiting to fire; for tests. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /**
   * Moves time forward by `step`, firing each timer that falls due at its own time, one event-loop
   * turn apart. Calls made while one runs wait for it, so steps never interleave.
   */
  advance(step: ClockStep): Promise<void> {
    const ms = clockStepMs(step);
    const run = this.#advancing.then(() => this.#advanceTo(this.#now + ms));
    this.#advancing = run.catch(() => undefined);
    return run;
  }

  /** Moves time forward to `ms` since the epoch, as advance does; never back. */
  setTime(ms: number): Promise<void> {
    if (!Number.isFinite(ms)) return Promise.reject(new RangeError(`not a time: ${String(ms)}`));
    const run = this.#advancing.then(() => {
      if (ms < this.#now)
        throw new RangeError(
          `a clock only goes forward: ${new Date(ms).toISOString()} is before ${new Date(this.#now).toISOString()}`,
        );
      return this.#advanceTo(ms);
    });
    this.#advancing = run.catch(() => undefined);
    return run;
  }

  async #advanceTo(target: number): Promise<void> {
    for (;;) {
      const next = this.#firstDue(target);
      if (next === undefined) break;
      this.#now = Math.max(this.#now, next.due);
      if (next.periodMs > 0) {
        const periods = Math.max(1, Math.floor((target - next.due) / next.periodMs));
        next.due += periods * next.periodMs;
      } else {
        this.#timers.delete(next);
      }
      next.fn();
      await nextTurn();
    }
    this.#now = target;
  }

  #firstDue(target: number): Scheduled | undefined {
    let first: Scheduled | undefined;
    for (const t of this.#timers) {
      if (t.due > target) continue;
      if (first === undefined || t.due < first.due || (t.due === first.due && t.seq < first.seq)) first = t;
    }
    return first;
  }

  #schedule(fn: () => void, ms: number, periodMs: number): ClockTimer {
    const entry: Scheduled = {
      seq: this.#seq++,
      due: this.#now + Math.max(0, ms),
      periodMs,
      fn,
    };
    this.#timers.add(entry);
    return {
      cancel: () => {
        this.#timers.delete(entry);
      },
    };
  }
}

/** The clock a server of this kind runs on. */
export function newClock(kind: ClockKind): Clock {
  return kind === 'virtual' ? new VirtualClock() : systemClock;
}
