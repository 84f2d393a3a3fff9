// The rate limit on batches (client-go's flowcontrol.NewTokenBucketRateLimiter over
// golang.org/x/time/rate): `burst` tokens to start with, refilled at `qps` a second; a caller takes
// one and is told how long to wait for it when none is left.
export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, now: () => number = () => performance.now()) {
    this.#qps = qps;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes a token; the milliseconds until it is due (0: at once). */
  reserve(): number {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) * this.#qps) / 1000);
    this.#last = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens * 1000) / this.#qps;
  }
}
