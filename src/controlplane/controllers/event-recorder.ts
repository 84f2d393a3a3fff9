// Events about objects, as client-go's EventRecorder writes them for a controller (tools/record):
// a core/v1 Event named `<object>.<hex unix nanoseconds>` in the object's namespace ("default" for
// cluster-scoped objects), created through the same admitted storage as any client's. Recording never
// fails its caller: an event that cannot be written is logged and dropped. Events pass client-go's
// EventCorrelator (tools/record/events_cache.go; the aggregator and spam filter are
// event-correlator.ts): similar events past ten messages in ten minutes fold into one "(combined
// from similar events)" event, a repeat of an event while it is remembered is counted on the first
// one (its count goes up and its lastTimestamp moves: `kubectl describe` shows `x3 over 2m`), and a
// source's events about one object past a burst of 25 (one more each 5 minutes) are dropped. A
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
import {
  defaultCorrelatorLimits,
  EventAggregator,
  EventSpamFilter,
  LruCache,
  maxLruCacheEntries,
} from './event-correlator.js';

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
  /**
   * How many entries each of the correlator's caches keeps: events remembered to count repeats,
   * groups of similar events, token buckets (default 4096, client-go's maxLruCacheEntries).
   */
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
  readonly firstTimestamp: string;
  count: number;
  /** A write of it has been issued: its repeats update it (and create it again if it is gone). */
  stored: boolean;
  written: Promise<unknown>;
}

/** What an event says about its object. */
export interface EventNote {
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
}

export class EventRecorder {
  readonly #opts: EventRecorderOptions;
  /** Events by key, as client-go's eventLogger keeps them to count repeats. */
  readonly #seen: LruCache<Recorded>;
  readonly #aggregator: EventAggregator;
  readonly #spamFilter: EventSpamFilter;
  #lastNanos = 0n;

  constructor(opts: EventRecorderOptions) {
    this.#opts = opts;
    const entries = opts.remembered ?? maxLruCacheEntries;
    this.#seen = new LruCache(entries);
    this.#aggregator = new EventAggregator({ entries, ...defaultCorrelatorLimits });
    this.#spamFilter = new EventSpamFilter({ entries, ...defaultCorrelatorLimits });
  }

  /**
   * Records the event in the background, as client-go's EventCorrelator lets it through: folded
   * into an aggregate when similar ones come too often, counted on the first when it repeats,
   * dropped when its source has written too many about the object lately.
   */
  event(ref: ObjectReference, e: EventNote, from?: EventHost): void {
    const events = this.#opts.events;
    if (events === undefined) return;
    const nowMs = (this.#opts.now ?? Date.now)();
    const { event, key } = this.#aggregator.aggregate(
      this.#newEvent({ ref, e, host: from?.host ?? '' }, nowMs),
      nowMs,
    );
    const seen = this.#observe(key, event);
    const observed: Event = {
      ...event,
      metadata: { name: seen.name, namespace: seen.namespace },
      firstTimestamp: seen.firstTimestamp,
      count: seen.count,
    };
    if (this.#spamFilter.filter(observed, nowMs)) {
      this.#opts.logger.v(5, 'Event dropped as spam', { reason: e.reason, object: ref.name });
      return;
    }
    if (!seen.stored) {
      seen.stored = true;
      seen.written = events
        .create(internalContext({ namespace: seen.namespace }), observed, { options: this.#writeOptions() })
        .catch((err: unknown) => {
          this.#opts.logger.v(2, 'Event not recorded', { reason: e.reason, err: errorText(err) });
        });
      return;
    }
    this.#repeat(seen, observed);
  }

  #newEvent(a: { ref: ObjectReference; e: EventNote; host: string }, nowMs: number): Event {
    const { ref, e, host } = a;
    const now = nowTimestamp(nowMs);
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: eventName(ref.name ?? '', this.#nanos(nowMs)),
        namespace: ref.namespace === undefined || ref.namespace === '' ? 'default' : ref.namespace,
      },
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
  }

  /** The event's record, its count one up when it is a repeat (client-go's eventObserve). */
  #observe(key: string, event: Event): Recorded {
    const seen = this.#seen.get(key);
    if (seen !== undefined) {
      seen.count++;
      return seen;
    }
    const recorded: Recorded = {
      name: event.metadata?.name ?? '',
      namespace: event.metadata?.namespace ?? '',
      firstTimestamp: event.firstTimestamp ?? '',
      count: 1,
      stored: false,
      written: Promise.resolve(),
    };
    this.#seen.add(key, recorded);
    return recorded;
  }

  #writeOptions(): { fieldManager?: string } {
    return this.#opts.fieldManager === undefined ? {} : { fieldManager: this.#opts.fieldManager };
  }

  /**
   * A repeat, after the event's last write: its count, lastTimestamp and message (an aggregate's
   * moves to the latest) written over the stored one, as client-go's patch does; when the event is
   * gone (its TTL passed), it is created again under its name with the count so far, as client-go
   * creates it when the patch finds nothing.
   */
  #repeat(seen: Recorded, observed: Event): void {
    const update = this.#opts.events?.update?.bind(this.#opts.events);
    if (update === undefined) return;
    const { count, lastTimestamp, message } = observed;
    const ctx = internalContext({ namespace: seen.namespace });
    seen.written = seen.written
      .then(() =>
        update(ctx, seen.name, {
          objInfo: {
            preconditions: () => undefined,
            updatedObject: (_ctx, old) =>
              Promise.resolve(old === null ? observed : { ...(old as Event), count, lastTimestamp, message }),
          },
          options: this.#writeOptions(),
        }),
      )
      .catch((err: unknown) => {
        this.#opts.logger.v(2, 'Event not counted', { reason: observed.reason, err: errorText(err) });
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
}

/** The core group's events storage in the served groups, when events are served. */
export function eventsIn(groups: readonly APIGroupInfo[]): RecordedEvents | undefined {
  const events = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1']?.['events'];
  return events !== undefined && isCreater(events) ? events : undefined;
}
