// Garbage collections on demand for tests that check what a piece of code keeps alive. Importing this
// module exposes V8's gc() to the test's process (tests run each file in a process of its own).
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

/** A full collection, or a young-generation one (`{ type: 'minor' }`). */
export const gc = runInNewContext('gc') as (opts?: { type: 'minor' | 'major' }) => void;

const oldSpaceUsed = (): number =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;

/**
 * Bytes the old generation grew by per call of `each` over `count` calls, from a settled heap, with a
 * young-generation collection every 20 calls, as a busy server has them: an object still held when
 * two of them pass is promoted to the old generation; one that died young is not. `each` runs 50
 * times first, to warm up.
 */
export async function promotedPerCall(count: number, each: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < 50; i++) await each(i);
  gc();
  const start = oldSpaceUsed();
  for (let i = 0; i < count; i++) {
    await each(50 + i);
    if (i % 20 === 19) gc({ type: 'minor' });
  }
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  return (oldSpaceUsed() - start) / count;
}
