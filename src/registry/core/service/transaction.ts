// What an allocation leaves to do once the write is known (pkg/registry/core/service/storage/
// transaction.go): revert gives back what was taken, commit releases what the old object held.
export class Transaction {
  readonly #reverts: (() => Promise<void>)[] = [];
  readonly #commits: (() => Promise<void>)[] = [];
  #done = false;

  onRevert(fn: () => Promise<void>): void {
    this.#reverts.push(fn);
  }

  onCommit(fn: () => Promise<void>): void {
    this.#commits.push(fn);
  }

  async commit(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    for (const fn of this.#commits) await fn().catch(() => undefined);
  }

  /** Best effort, newest first: a leak left behind is the repair pass's to find. */
  async revert(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    for (const fn of [...this.#reverts].reverse()) await fn().catch(() => undefined);
  }
}
