// Records what a backend watch delivers, in arrival order, and checks the port's promises about it.
import assert from 'node:assert/strict';
import type { KvEvent, WatchCallbacks } from '../backend.js';
import { eventually } from './suite-context.js';

export type Delivery =
  | { readonly kind: 'events'; readonly events: readonly KvEvent[] }
  | { readonly kind: 'progress'; readonly revision: number }
  | { readonly kind: 'error'; readonly err: Error };

export class WatchRecorder implements WatchCallbacks {
  readonly deliveries: Delivery[] = [];
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  onEvents(events: readonly KvEvent[]): void {
    this.deliveries.push({ kind: 'events', events: [...events] });
  }

  onProgress(revision: number): void {
    this.deliveries.push({ kind: 'progress', revision });
  }

  onError(err: Error): void {
    this.deliveries.push({ kind: 'error', err });
  }

  get events(): KvEvent[] {
    return this.deliveries.flatMap((d) => (d.kind === 'events' ? d.events : []));
  }

  get revisions(): number[] {
    return this.events.map((e) => e.kv.modRevision);
  }

  get error(): Error | null {
    for (const d of this.deliveries) if (d.kind === 'error') return d.err;
    return null;
  }

  get progress(): number[] {
    return this.deliveries.flatMap((d) => (d.kind === 'progress' ? [d.revision] : []));
  }

  async waitForEvents(n: number): Promise<KvEvent[]> {
    await eventually(
      `${n} watch events (have ${this.events.length})`,
      this.#timeoutMs,
      () => this.events.length >= n,
    );
    return this.events;
  }

  async waitForError(): Promise<Error> {
    await eventually('a watch error', this.#timeoutMs, () => this.error !== null);
    const err = this.error;
    assert.ok(err !== null);
    return err;
  }

  async waitForProgress(atLeast: number): Promise<number> {
    await eventually(`progress at or above ${atLeast}`, this.#timeoutMs, () =>
      this.progress.some((r) => r >= atLeast),
    );
    return this.progress.find((r) => r >= atLeast) ?? 0;
  }

  /** Events arrived in strictly increasing revision order, with none repeated. */
  assertOrdered(): void {
    const revs = this.revisions;
    for (let i = 1; i < revs.length; i++) {
      const prev = revs[i - 1] ?? 0;
      assert.ok((revs[i] ?? 0) > prev, `event revisions out of order or repeated: ${revs.join(',')}`);
    }
  }

  /** Nothing has been delivered for `ms` more milliseconds than now. */
  async assertQuietFor(ms: number): Promise<void> {
    const before = this.deliveries.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    assert.equal(this.deliveries.length, before, 'the watch delivered after it should have stopped');
  }
}
