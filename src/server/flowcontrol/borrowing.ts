// Concurrency borrowing between priority levels (KEP-1040, kube's apf_controller.go): each level has
// a nominal limit from its shares, may lend `lendablePercent` of it and borrow up to
// `borrowingLimitPercent` (unbounded when unset: the whole server); every adjustment period the
// levels' current limits are re-divided in proportion to their smoothed seat demand, within those
// bounds, so that they sum to the nominal limits' sum.

/** A level's bounds, from its configuration and the server's concurrency. */
export interface LevelLimits {
  readonly nominal: number;
  /** nominal - lendable: what the level keeps whatever others demand. */
  readonly min: number;
  /** nominal + what it may borrow. */
  readonly max: number;
}

/** The configuration a level's limits come from. */
export interface LevelShares {
  readonly shares: number;
  readonly lendablePercent: number;
  /** Undefined: no limit (exempt levels, and limited ones that leave it unset). */
  readonly borrowingLimitPercent: number | undefined;
}

/** Go's math.Round: halves away from zero. */
const goRound = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

/** A level's nominal, minimum and maximum concurrency (finishQueueSetReconfigsLocked). */
export function levelLimits(level: LevelShares, serverConcurrency: number, shareSum: number): LevelLimits {
  const nominal = shareSum > 0 ? Math.ceil((serverConcurrency * level.shares) / shareSum) : 0;
  const lendable = goRound((nominal * level.lendablePercent) / 100);
  const borrowing =
    level.borrowingLimitPercent === undefined
      ? serverConcurrency
      : goRound((nominal * level.borrowingLimitPercent) / 100);
  return { nominal, min: nominal - lendable, max: nominal + borrowing };
}

/** What an integrator saw over a period: the time-weighted mean, its deviation, and the peak. */
export interface DemandObservation {
  readonly durationMs: number;
  readonly average: number;
  readonly deviation: number;
  readonly max: number;
}

/** Integrates a level's seat demand (seats executing plus seats waiting) over time. */
export class SeatDemandIntegrator {
  readonly #now: () => number;
  #value = 0;
  #since: number;
  #start: number;
  #sum = 0;
  #sumSquares = 0;
  #max = 0;

  constructor(now: () => number) {
    this.#now = now;
    this.#since = this.#start = now();
  }

  set(value: number): void {
    this.#accumulate();
    this.#value = value;
    if (value > this.#max) this.#max = value;
  }

  add(delta: number): void {
    this.set(this.#value + delta);
  }

  /** The period's observation; a new period starts, at the current demand. */
  reset(): DemandObservation {
    this.#accumulate();
    const durationMs = this.#since - this.#start;
    const average = durationMs > 0 ? this.#sum / durationMs : this.#value;
    const variance = durationMs > 0 ? this.#sumSquares / durationMs - average * average : 0;
    const observation = { durationMs, average, deviation: Math.sqrt(Math.max(0, variance)), max: this.#max };
    this.#start = this.#since;
    this.#sum = this.#sumSquares = 0;
    this.#max = this.#value;
    return observation;
  }

  #accumulate(): void {
    const now = this.#now();
    const dt = now - this.#since;
    if (dt > 0) {
      this.#sum += this.#value * dt;
      this.#sumSquares += this.#value * this.#value * dt;
    }
    this.#since = now;
  }
}

/** Half-life of five minutes at one adjustment every ten seconds (kube's coefficient). */
const smoothing = 0.977;

/** A level's demand as the adjustment sees it: the period's peak and an envelope smoothed over time. */
export class SeatDemandStats {
  highWatermark = 0;
  smoothed = 0;

  update(o: DemandObservation): void {
    this.highWatermark = o.max;
    if (o.durationMs <= 0) return;
    const envelope = o.average + o.deviation;
    this.smoothed = Math.max(envelope, smoothing * this.smoothed + (1 - smoothing) * envelope);
  }
}

export interface AllocationItem {
  readonly lower: number;
  readonly upper: number;
  readonly target: number;
}

const minTarget = 0.001;

/**
 * Divides `total` among the items: each gets `fair * target` clamped to its bounds, with the one
 * `fair` that makes the shares sum to `total`. When the bounds cannot meet `total`, each item gets
 * the bound that is closest (all lower, or all upper).
 */
export function allocate(total: number, items: readonly AllocationItem[]): number[] {
  const share = (fair: number): number[] =>
    items.map((i) => Math.min(i.upper, Math.max(i.lower, fair * Math.max(minTarget, i.target))));
  const sum = (fair: number): number => share(fair).reduce((a, b) => a + b, 0);
  if (items.reduce((a, i) => a + i.lower, 0) >= total) return items.map((i) => i.lower);
  if (items.reduce((a, i) => a + i.upper, 0) <= total) return items.map((i) => i.upper);
  // sum() grows with `fair` and meets `total` between these two (every item at a bound).
  let low = 0;
  let high = Math.max(...items.map((i) => i.upper / Math.max(minTarget, i.target)));
  for (let step = 0; step < 100 && high - low > 1e-12 * high; step++) {
    const mid = (low + high) / 2;
    if (sum(mid) < total) low = mid;
    else high = mid;
  }
  return share(high);
}

/** A level's lower bound and target for the next period (updateBorrowingLocked). */
export function allocationItem(limits: LevelLimits, stats: SeatDemandStats): AllocationItem {
  const lower = Math.max(limits.min, Math.min(limits.nominal, stats.highWatermark));
  return { lower, upper: limits.max, target: Math.max(lower, stats.smoothed) };
}
