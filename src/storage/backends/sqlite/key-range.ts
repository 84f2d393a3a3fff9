// Key ranges as etcd reads them: [start, end) bytewise, where end "\0" means "every key from start on".
// Storage keys are ASCII, so JavaScript's code-unit order equals SQLite's BINARY (memcmp) order.
import type { KeyRange } from '../../kv/backend.js';

/** etcd's range_end "\0": no upper bound. */
export function isUnbounded(range: KeyRange): boolean {
  return range.end === '\0';
}

export function inRange(key: string, range: KeyRange): boolean {
  if (key < range.start) return false;
  return isUnbounded(range) || key < range.end;
}
