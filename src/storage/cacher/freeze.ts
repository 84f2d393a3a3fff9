// Objects in the cache are shared by every reader and watcher, so they are frozen on the way in: a
// caller that tries to change one fails loudly instead of corrupting what others see.

/** Freezes a plain JSON value and everything under it; stops at what is already frozen. */
export function deepFreeze<V>(value: V): V {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) deepFreeze(item);
  } else {
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
