// The one source of time of the simulated cluster: every simulated controller reads `now` and sets
// its timers through this, so a test (or a virtual clock of the server, later) can swap it.

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

/** RFC 3339 at second precision, as metav1.Time is written. */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
