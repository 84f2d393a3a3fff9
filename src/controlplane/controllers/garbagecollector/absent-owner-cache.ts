// Owners a live read found absent (kube's ReferenceCache, an LRU of 500): dependents naming them are
// deleted without asking again. Keys carry the uid, so a recreated owner is never mistaken for one.
import { referenceKey, type ObjectIdentity } from './identity.js';

export class AbsentOwnerCache {
  readonly #max: number;
  readonly #keys = new Set<string>();

  constructor(max = 500) {
    this.#max = max;
  }

  add(id: ObjectIdentity): void {
    const key = referenceKey(id);
    this.#keys.delete(key);
    this.#keys.add(key);
    if (this.#keys.size <= this.#max) return;
    const oldest = this.#keys.values().next();
    if (oldest.done !== true) this.#keys.delete(oldest.value);
  }

  has(id: ObjectIdentity): boolean {
    const key = referenceKey(id);
    if (!this.#keys.has(key)) return false;
    // Recently used keys stay longest.
    this.#keys.delete(key);
    this.#keys.add(key);
    return true;
  }
}
