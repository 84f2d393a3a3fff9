// How long dispatch may block on watchers whose queues are full (kube's time_budget.go): 50 ms are
// added every second up to 100 ms; dispatch takes what is available and returns what it did not use.

const refreshPerSecondMs = 50;
const maxBudgetMs = 100;

export class TimeBudget {
  #budget: number;
  #refreshedAt: number;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#refreshedAt = now();
    // kube starts empty; starting full spares watchers that hiccup in the first second.
    this.#budget = maxBudgetMs;
  }

  takeAvailable(): number {
    const now = this.#now();
    const earned = ((now - this.#refreshedAt) / 1000) * refreshPerSecondMs;
    this.#refreshedAt = now;
    const out = Math.min(maxBudgetMs, this.#budget + earned);
    this.#budget = 0;
    return out;
  }

  returnUnused(unusedMs: number): void {
    if (unusedMs <= 0) return;
    this.#budget = Math.min(maxBudgetMs, this.#budget + unusedMs);
  }
}
