// Starts requests in arrival order, a bounded amount of work per turn of the event loop.
//
// Node accepts one new connection per turn (libuv's poll phase takes one from the listen queue), and
// reads every readable socket in that turn. Left alone, a busy server's turn grows with the load:
// at 64 busy clients a turn ran every request that had arrived (~40 ms), so 64 clients connecting at
// once waited up to 64 turns (~2.6 s) to be accepted, and every round trip of a TLS handshake or of a
// kubectl session during a load waited a whole turn. Here a request's handler starts from its own
// setImmediate; once the starts of one check phase have used `budgetMs`, the rest move to the next
// turn, so turns stay short and accepting, reading and committing interleave with the work. Requests
// still start in the order they arrived.
import { performance } from 'node:perf_hooks';

export interface TurnPacerOptions {
  /** Milliseconds of request starts per turn before the rest wait for the next one. */
  readonly budgetMs?: number;
}

export class TurnPacer {
  readonly #budgetMs: number;
  readonly #queue: (() => void)[] = [];
  #head = 0;
  /** When this turn's starts began; set by a marker scheduled ahead of them. */
  #turnStart = 0;
  #markerPending = false;

  constructor(opts: TurnPacerOptions = {}) {
    this.#budgetMs = opts.budgetMs ?? 8;
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.#queue.length - this.#head;
  }

  /** Runs `start` in arrival order once the loop has room for it. */
  submit(start: () => void): void {
    this.#queue.push(start);
    this.#schedule();
  }

  #schedule(): void {
    if (!this.#markerPending) {
      this.#markerPending = true;
      setImmediate(this.#mark);
    }
    setImmediate(this.#runNext);
  }

  readonly #mark = (): void => {
    this.#markerPending = false;
    this.#turnStart = performance.now();
  };

  readonly #runNext = (): void => {
    if (performance.now() - this.#turnStart > this.#budgetMs) {
      // Scheduled from the check phase, this runs in the next turn, behind a new marker.
      this.#schedule();
      return;
    }
    const start = this.#queue[this.#head];
    this.#queue[this.#head++] = noop;
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
    start?.();
  };
}

const noop = (): void => undefined;
