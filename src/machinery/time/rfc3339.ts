// metav1.Time as it serializes: RFC 3339 in UTC to the second. Timestamps are written on every
// create and update (creationTimestamp, managedFields' times), so the text of the current second is
// kept rather than formatted for each.

/** An RFC 3339 UTC timestamp with second precision. */
export function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

let last = { second: -1, text: '' };

/** metav1.Now(), serialized; `nowMs` is the server clock's reading (default: the system's). */
export function nowRFC3339(nowMs: number = Date.now()): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== last.second) last = { second, text: rfc3339(new Date(second * 1000)) };
  return last.text;
}
