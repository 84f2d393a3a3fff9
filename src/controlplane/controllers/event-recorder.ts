// Events about objects, as client-go's EventRecorder writes them for a controller (tools/record):
// a core/v1 Event named `<object>.<hex unix nanoseconds>` in the object's namespace ("default" for
// cluster-scoped objects), created through the same admitted storage as any client's. Recording never
// fails its caller: an event that cannot be written is logged and dropped. A repeat of an event is
// not written again while remembered (client-go would count it on the first one instead). A
// recorder serving many hosts (the simulated kubelets, one per node) names the host per event: it
// becomes source.host and reportingInstance, as client-go's recorder copies its source's host.
import type { Event } from '../../api/core/v1/event.js';
import type { ObjectReference } from '../../api/core/v1/object-reference.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isCreater, type Creater } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import { nowTimestamp } from '../../registry/generic/object-meta.js';
import { errorText } from '../../server/logging/error-text.js';
import type { Logger } from '../../server/logging/logger.js';

export const eventTypes = ['Normal', 'Warning'] as const;
export type EventType = (typeof eventTypes)[number];

export interface EventRecorderOptions {
  /** core/v1 events; without it nothing is recorded. */
  readonly events: Creater | undefined;
  /** The source component (`garbage-collector-controller`). */
  readonly component: string;
  readonly logger: Logger;
  /** The server's clock in milliseconds: the events' timestamps (default: the system's). */
  readonly now?: () => number;
  /** How many distinct events are remembered to drop repeats (default 4096). */
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

export class EventRecorder {
  readonly #opts: EventRecorderOptions;
  readonly #seen = new Set<string>();
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
    if (this.#seen.has(key)) return;
    this.#remember(key);
    const namespace = ref.namespace === undefined || ref.namespace === '' ? 'default' : ref.namespace;
    const nowMs = (this.#opts.now ?? Date.now)();
    const now = nowTimestamp(nowMs);
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: eventName(ref.name ?? '', this.#nanos(nowMs)), namespace },
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
    events
      .create(internalContext({ namespace }), event, {
        options: this.#opts.fieldManager === undefined ? {} : { fieldManager: this.#opts.fieldManager },
      })
      .catch((err: unknown) => {
        this.#opts.logger.v(2, 'Event not recorded', { reason: e.reason, err: errorText(err) });
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

  #remember(key: string): void {
    this.#seen.add(key);
    if (this.#seen.size <= (this.#opts.remembered ?? 4096)) return;
    const oldest = this.#seen.values().next();
    if (oldest.done !== true) this.#seen.delete(oldest.value);
  }
}

/** The core group's events storage in the served groups, when events are served. */
export function eventsIn(groups: readonly APIGroupInfo[]): Creater | undefined {
  const events = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1']?.['events'];
  return events !== undefined && isCreater(events) ? events : undefined;
}
