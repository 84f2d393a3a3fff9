// Test helpers for readers that should stop asking a Store once their informer holds its objects: a
// view of the Store that records every list and get, and a wait until a reader shows what it should.
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../api/meta.js';
import type { Store } from '../store.js';

export interface StoreReads {
  /** The resourceVersion of every list, in order ('' when none was given). */
  readonly lists: string[];
  gets: number;
}

/** The same Store, with its list and get counted in the returned record. */
export function countingStore<T extends KubeObject>(store: Store<T>): { store: Store<T>; reads: StoreReads } {
  const reads: StoreReads = { lists: [], gets: 0 };
  const counting = Object.create(store) as Store<T>;
  counting.list = (ctx, options) => {
    reads.lists.push(options.resourceVersion ?? '');
    return store.list(ctx, options);
  };
  counting.get = (ctx, name, options) => {
    reads.gets++;
    return store.get(ctx, name, options);
  };
  return { store: counting, reads };
}

/** Waits (a turn at a time, 5 s at most) until `names()` answers `want`. */
export async function untilNames(names: () => Promise<string[]>, want: string[], what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  let got = await names();
  while (JSON.stringify(got) !== JSON.stringify(want)) {
    if (Date.now() > deadline) assert.fail(`${what} holds ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
    await new Promise((r) => setImmediate(r));
    got = await names();
  }
}
