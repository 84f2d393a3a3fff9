// ControllerExpectations (pkg/controller/controller_utils.go): after creating or deleting pods a
// controller does not act again on its cache until it has seen those changes, or the expectation
// has gone stale (five minutes), so that it never creates twice the pods it needs.
const ttlMs = 5 * 60_000;

interface Expected {
  adds: number;
  readonly deletes: Set<string>;
  readonly at: number;
}

export class Expectations {
  readonly #byKey = new Map<string, Expected>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  satisfied(key: string): boolean {
    const e = this.#byKey.get(key);
    if (e === undefined) return true;
    return (e.adds <= 0 && e.deletes.size === 0) || this.#now() - e.at > ttlMs;
  }

  expect(key: string, adds: number, deletes: readonly string[]): void {
    this.#byKey.set(key, { adds, deletes: new Set(deletes), at: this.#now() });
  }

  creationObserved(key: string): void {
    const e = this.#byKey.get(key);
    if (e !== undefined) e.adds--;
  }

  deletionObserved(key: string, podKey: string): void {
    this.#byKey.get(key)?.deletes.delete(podKey);
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }
}
