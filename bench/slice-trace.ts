// BENCH_TRACE=1: what else happened in this process during each of bench/api's Capstan slices, printed
// beside the slice's CPU per request: V8's major collections (their final pause; their marking runs
// on the helper threads too, and counts in the slice's CPU), minor ones that paused 8 ms or more, and
// event-loop stalls past 25 ms. A cell that costs far more in one round than in the other mostly had
// a major collection in that slice.
import { constants, PerformanceObserver } from 'node:perf_hooks';

const tickMs = 5;
const stallMs = 25;
const minorPauseMs = 8;

export class SliceTrace {
  #events: string[] = [];
  #last = performance.now();
  readonly #timer: NodeJS.Timeout;
  readonly #observer: PerformanceObserver;

  constructor() {
    this.#timer = setInterval(() => {
      const now = performance.now();
      const late = now - this.#last - tickMs;
      if (late > stallMs) this.#events.push(`stall ${late.toFixed(0)} ms`);
      this.#last = now;
    }, tickMs).unref();
    this.#observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR)
          this.#events.push(`major GC ${e.duration.toFixed(0)} ms`);
        else if (e.duration >= minorPauseMs) this.#events.push(`GC ${e.duration.toFixed(0)} ms`);
      }
    });
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  /** What happened since the last call. */
  take(): readonly string[] {
    const out = this.#events;
    this.#events = [];
    return out;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#observer.disconnect();
  }
}
