// Setting a member of a JSON object by a key that came from a client. `obj[key] = value` with the
// key `__proto__` (which JSON.parse makes an ordinary member, and which a ConfigMap may use as a data
// key) would set the object's prototype instead, or, on a merge target, reach Object.prototype itself.

export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** The object's own member `key`: never one inherited from Object.prototype (`__proto__`, `toString`). */
export function memberOf<V>(obj: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Appends `values` to the list under a client's `key`, starting the list when there is none. */
export function appendToMember<V>(obj: Record<string, V[]>, key: string, values: readonly V[]): void {
  const list = memberOf(obj, key);
  if (list === undefined) setMember(obj, key, [...values]);
  else list.push(...values);
}
