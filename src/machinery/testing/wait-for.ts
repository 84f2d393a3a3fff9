// For the unit tests of controllers that work in the background: a condition polled every few
// milliseconds (never a fixed sleep), failing with the last value seen when it does not hold in time.
import assert from 'node:assert/strict';

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T>,
  holds: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (holds(v)) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
