// What the storage layer keeps on an object it is handed (a write's bytes, a written object, a
// watch event, a FieldsV1 object): a property under a symbol of its own, not enumerable, so
// spreads, copies, comparisons and JSON leave it behind, and it goes with its holder. Not a
// WeakMap by holder: such a map gains an entry a write, and one growth of its table stopped the
// event loop for 78 ms (docs/performance.md, stop 44). Readers read the symbol where they are.

/** Keeps `value` on `holder` under `key`, replacing what it kept; a frozen holder keeps nothing. */
export function keepOn(holder: object, key: symbol, value: unknown): void {
  if (Object.isExtensible(holder))
    Object.defineProperty(holder, key, { value, writable: true, configurable: true });
}
