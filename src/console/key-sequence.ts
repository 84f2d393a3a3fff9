// Keyboard navigation's state, apart from the DOM: single keys and two-key sequences ("g r"), and
// the selected row moved by j/k within the list.

export interface KeyStep {
  /** The binding the key completes, if any. */
  readonly binding?: string;
  /** The first key of a sequence typed so far ('' when none). */
  readonly prefix: string;
}

/** What pressing `key` does after `prefix`, given the bindings' names ("j", "Enter", "g r"). */
export function keyStep(bindings: readonly string[], prefix: string, key: string): KeyStep {
  const name = prefix === '' ? key : `${prefix} ${key}`;
  if (bindings.includes(name)) return { binding: name, prefix: '' };
  // A key that starts a sequence waits for the next one; a sequence that went wrong starts over.
  if (bindings.some((b) => b.startsWith(`${key} `))) return { prefix: key };
  return { prefix: '' };
}

/** The selection after moving by `delta` rows: -1 (none) until the first move, then within the rows. */
export function moveSelection(selected: number, delta: number, count: number): number {
  if (count === 0) return -1;
  return Math.min(count - 1, Math.max(0, selected + delta));
}
