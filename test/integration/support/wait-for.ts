// Waits on a condition polled every few milliseconds (never a fixed sleep), failing with the last
// value seen when it does not hold in time.
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T>,
  holds: (value: T) => boolean,
  timeoutMs = 8000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (holds(last)) return last;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
