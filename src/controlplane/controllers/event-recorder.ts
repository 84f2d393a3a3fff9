// Events about objects, as client-go's EventRecorder writes them for a controller (tools/record):
// a core/v1 Event named `<object>.<hex unix nanoseconds>` in the object's namespace ("default" for
// cluster-scoped objects), created through the same admitted storage as any client's. Recording never
// fails its caller: an event that cannot be written is logged and dropped. A repeat of an event
// while it is remembered is counted on the first one, as client-go's EventCorrelator does: its
// count goes up and its lastTimestamp moves (`kubectl describe` shows `x3 over 2m`). A
// recorder serving many hosts (the simulated kubelets, one per node) names the host per event: it
// becomes source.host and reportingInstance, as client-go's recorder copies its source's host.
import type { Event } from '../../api/core/v1/event.js';
import type { ObjectReference } from '../../api/core/v1/object-reference.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isCreater, type Creater, type Updater } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import { nowTimestamp } from '../../registry/generic/object-meta.js';
import { errorText } from '../../server/logging/error-text.js';
import type { Logger } from '../../server/logging/logger.js';

/** Where events go: created, and updated when they repeat. */
export type RecordedEvents = Creater & Partial<Updater>;

export const eventTypes = ['Normal', 'Warning'] as const;
export type EventType = (typeof eventTypes)[number];

export interface EventRecorderOptions {
  /** core/v1 events; without it nothing is recorded, without `update` repeats are not counted. */
  readonly events: RecordedEvents | undefined;
  /** The source component (`garbage-collector-controller`). */
  readonly component: string;
  readonly logger: Logger;
  /** The server's clock in milliseconds: the events' timestamps (default: the system's). */
  readonly now?: () => number;
  /** How many distinct events are remembered to count repeats (default 4096). */
  readonly remembered?: number;
  /**
   * The field manager the events are written under (client-go's user agent: `kubelet`,
   * `kube-scheduler`); the storage's writer when unset.
   */
  readonly fieldManager?: string;
}

/** How client-go names an event: the object's name and the time in nanoseconds, in hex. */
const eventName = (objectName: string, nanos: bigint): string => `${objectName}.${nanos.toString(16)}`;

/** Where an event comes from, when the component runs on a host (kubelet: the node's name). */
export interface EventHost {
  readonly host: string;
}

/** An event recorded, as its repeats find it: where it is, its count, and its last write. */
interface Recorded {
  readonly name: string;
  readonly namespace: string;
  count: number;
  written: Promise<unknown>;
}

export class EventRecorder {
  readonly #opts: EventRecorderOptions;
  readonly #seen = new Map<string, Recorded>();
  #lastNanos = 0n;

  constructor(opts: EventRecorderOptions) {
    this.#opts = opts;
  }

  /** Records the event in the background. */
  event(
    ref: ObjectReference,
    e: { type: EventType; reason: string; message: string },
    from?: EventHost,
  ): void {
    const events = this.#opts.events;
    if (events === undefined) return;
    const host = from?.host ?? '';
    const key = JSON.stringify([ref.uid, ref.name, ref.fieldPath, host, e.type, e.reason, e.message]);
    const nowMs = (this.#opts.now ?? Date.now)();
    const now = nowTimestamp(nowMs);
    const seen = this.#seen.get(key);
    if (seen !== undefined) {
      this.#repeat(key, { seen, now, reason: e.reason });
      return;
    }
    const namespace = ref.namespace === undefined || ref.namespace === '' ? 'default' : ref.namespace;
    const name = eventName(ref.name ?? '', this.#nanos(nowMs));
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: ref,
      reason: e.reason,
      message: e.message,
      source: host === '' ? { component: this.#opts.component } : { component: this.#opts.component, host },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type: e.type,
      eventTime: null,
      reportingComponent: this.#opts.component,
      reportingInstance: host,
    };
    const written = events
      .create(internalContext({ namespace }), event, { options: this.#writeOptions() })
      .catch((err: unknown) => {
        this.#seen.delete(key);
        this.#opts.logger.v(2, 'Event not recorded', { reason: e.reason, err: errorText(err) });
      });
    this.#remember(key, { name, namespace, count: 1, written });
  }

  #writeOptions(): { fieldManager?: string } {
    return this.#opts.fieldManager === undefined ? {} : { fieldManager: this.#opts.fieldManager };
  }

  /** A repeat: the recorded event's count one up and its lastTimestamp now, after its last write. */
  #repeat(key: string, r: { seen: Recorded; now: string; reason: string }): void {
    const { seen, now } = r;
    const update = this.#opts.events?.update?.bind(this.#opts.events);
    if (update === undefined) return;
    seen.count++;
    const count = seen.count;
    const ctx = internalContext({ namespace: seen.namespace });
    seen.written = seen.written
      .then(() =>
        update(ctx, seen.name, {
          objInfo: {
            preconditions: () => undefined,
            updatedObject: (_ctx, old) => {
              if (old === null) throw new Error('the event is gone');
              return Promise.resolve({ ...(old as Event), count, lastTimestamp: now });
            },
          },
          options: this.#writeOptions(),
        }),
      )
      .catch((err: unknown) => {
        // Gone (its TTL passed, or deleted): the next repeat records it anew.
        if (this.#seen.get(key) === seen) this.#seen.delete(key);
        this.#opts.logger.v(2, 'Event not counted', { reason: r.reason, err: errorText(err) });
      });
  }

  /**
   * The time in nanoseconds, past the last event's: names sort in the order events were recorded,
   * and never repeat, even while a virtual clock stands still.
   */
  #nanos(nowMs: number): bigint {
    const nanos = BigInt(nowMs) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
    this.#lastNanos = nanos > this.#lastNanos ? nanos : this.#lastNanos + 1n;
    return this.#lastNanos;
  }

  #remember(key: string, recorded: Recorded): void {
    this.#seen.set(key, recorded);
    if (this.#seen.size <= (this.#opts.remembered ?? 4096)) return;
    const oldest = this.#seen.keys().next();
    if (oldest.done !== true) this.#seen.delete(oldest.value);
  }
}

/** The core group's events storage in the served groups, when events are served. */
export function eventsIn(groups: readonly APIGroupInfo[]): RecordedEvents | undefined {
  const events = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1']?.['events'];
  return events !== undefined && isCreater(events) ? events : undefined;
}
