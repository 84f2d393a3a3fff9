// Reads a watch one event at a time with a deadline, so a missing event fails the test instead of
// hanging it. A read that timed out stays pending and is picked up by the next read.
import assert from 'node:assert/strict';
import type { Watch, WatchEvent } from '../interfaces.js';
import type { TestObject } from './test-object.js';

export type TestEvent = WatchEvent<TestObject>;
type Step = IteratorResult<TestEvent, unknown>;

const timedOut = Symbol('timed out');

/** Resolves with the promise's value, or with `timedOut` after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof timedOut> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => {
      resolve(timedOut);
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An event as a plain `{ type, object }`, for comparing whole events: the caches hand out events
 * whose object is a getter on their class (decoded on first read), which deepEqual does not see.
 */
export function plainEvent(event: TestEvent): { type: TestEvent['type']; object: unknown } {
  return { type: event.type, object: event.object };
}

export function isTimedOut(value: unknown): value is typeof timedOut {
  return value === timedOut;
}

export class EventReader {
  readonly watch: Watch<TestObject>;
  readonly #iterator: AsyncIterator<TestEvent>;
  readonly #timeoutMs: number;
  #pending: Promise<Step> | null = null;

  constructor(watch: Watch<TestObject>, timeoutMs: number) {
    this.watch = watch;
    this.#iterator = watch[Symbol.asyncIterator]();
    this.#timeoutMs = timeoutMs;
  }

  /** The next event or the end of the watch, or `timedOut`. */
  async step(timeoutMs = this.#timeoutMs): Promise<Step | typeof timedOut> {
    this.#pending ??= this.#iterator.next();
    const result = await within(this.#pending, timeoutMs);
    if (!isTimedOut(result)) this.#pending = null;
    return result;
  }

  /** The next event; fails when the watch ends or nothing comes in time. */
  async next(what = 'a watch event', timeoutMs = this.#timeoutMs): Promise<TestEvent> {
    const result = await this.step(timeoutMs);
    if (isTimedOut(result)) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    if (result.done === true) assert.fail(`the watch ended while waiting for ${what}`);
    return result.value;
  }

  /** The next event that is not a BOOKMARK. */
  async nextChange(what = 'a watch event', timeoutMs = this.#timeoutMs): Promise<TestEvent> {
    for (;;) {
      const event = await this.next(what, timeoutMs);
      if (event.type !== 'BOOKMARK') return event;
    }
  }

  /** The next `n` events that are not BOOKMARKs. */
  async changes(n: number, what = 'watch events'): Promise<TestEvent[]> {
    const out: TestEvent[] = [];
    while (out.length < n) out.push(await this.nextChange(`${what} (${out.length + 1} of ${n})`));
    return out;
  }

  /** Fails unless the watch ends (with no further event) within the timeout. */
  async expectEnd(what = 'the watch to end', timeoutMs = this.#timeoutMs): Promise<void> {
    const result = await this.step(timeoutMs);
    if (isTimedOut(result)) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    assert.equal(result.done, true, `expected ${what}, got a ${stepKind(result)} event`);
  }

  stop(): void {
    this.watch.stop();
  }
}

function stepKind(step: Step): string {
  return step.done === true ? 'end' : step.value.type;
}

/** Asserts an event's type and object exactly. */
export function assertEvent(
  event: TestEvent,
  type: TestEvent['type'],
  object: unknown,
  what = 'event',
): void {
  assert.equal(event.type, type, `${what}: type`);
  assert.deepEqual(event.object, object, `${what}: object`);
}
