// The parts of client-go's EventCorrelator (tools/record/events_cache.go) that come before an event
// is counted: the aggregator, which folds many similar events (same source, object, type and reason,
// different messages) into one "(combined from similar events)" event, and the spam filter, a token
// bucket per source and object that drops what goes past it. Both run on the recorder's clock.
import type { Event } from '../../api/core/v1/event.js';

/** How many entries each of the correlator's caches keeps (client-go's maxLruCacheEntries). */
export const maxLruCacheEntries = 4096;

/** The prefix of an aggregate event's message (EventAggregatorByReasonMessageFunc). */
export const aggregateMessagePrefix = '(combined from similar events): ';

/** The correlator's limits; client-go's defaults unless a test narrows them. */
export interface CorrelatorLimits {
  /** Distinct messages of similar events within the interval before they aggregate (10). */
  readonly maxEvents: number;
  /** Seconds since the last similar event after which the count of messages starts over (600). */
  readonly maxIntervalSeconds: number;
  /** Events a source may write about one object at once (25). */
  readonly burst: number;
  /** The rate the bucket refills at, in events per second (1/300). */
  readonly qps: number;
}

export const defaultCorrelatorLimits: CorrelatorLimits = Object.freeze({
  maxEvents: 10,
  maxIntervalSeconds: 600,
  burst: 25,
  qps: 1 / 300,
});

/** A map that forgets its least recently used entry past its size, as k8s.io/utils/lru. */
export class LruCache<V> {
  readonly #max: number;
  readonly #entries = new Map<string, V>();

  constructor(max: number) {
    this.#max = max;
  }

  /** The entry, now the most recently used. */
  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  add(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size <= this.#max) return;
    const oldest = this.#entries.keys().next();
    if (oldest.done !== true) this.#entries.delete(oldest.value);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The fields that tell one source's events about one object apart (getSpamKey's, less the type). */
const objectFields = (e: Event): string[] => {
  const o = e.involvedObject ?? {};
  return [
    e.source?.component ?? '',
    e.source?.host ?? '',
    o.kind ?? '',
    o.namespace ?? '',
    o.name ?? '',
    o.uid ?? '',
    o.apiVersion ?? '',
  ];
};

/** An event's identity for counting repeats (getEventKey): everything but its times. */
export function eventKey(e: Event): string {
  const [component, host, kind, namespace, name, uid, apiVersion] = objectFields(e);
  const fields = [component, host, kind, namespace, name, e.involvedObject?.fieldPath ?? ''];
  return JSON.stringify([...fields, uid, apiVersion, e.type ?? '', e.reason ?? '', e.message ?? '']);
}

/** The spam filter's bucket of an event (getSpamKey): its source, its object (no field path), its type. */
export function spamKey(e: Event): string {
  return JSON.stringify([...objectFields(e), e.type ?? '']);
}

/**
 * The group of events similar to this one and its place in the group (EventAggregatorByReasonFunc):
 * similar events share source, object (no field path), type, reason and reporter; the message tells
 * them apart.
 */
export function aggregatorKeys(e: Event): { aggregateKey: string; localKey: string } {
  const reporter = [e.reportingComponent ?? '', e.reportingInstance ?? ''];
  const group = [...objectFields(e), e.type ?? '', e.reason ?? '', ...reporter];
  return { aggregateKey: JSON.stringify(group), localKey: e.message ?? '' };
}

/** Similar events seen lately: their distinct messages and when the last one came. */
interface AggregateRecord {
  readonly localKeys: Set<string>;
  lastMs: number;
}

/** The event to record and the key its repeats are counted under. */
export interface Aggregated {
  readonly event: Event;
  readonly key: string;
}

/** Folds similar events into one once they come too many and too fast (EventAggregator). */
export class EventAggregator {
  readonly #cache: LruCache<AggregateRecord>;
  readonly #maxEvents: number;
  readonly #maxIntervalMs: number;

  constructor(opts: { entries: number; maxEvents: number; maxIntervalSeconds: number }) {
    this.#cache = new LruCache(opts.entries);
    this.#maxEvents = opts.maxEvents;
    this.#maxIntervalMs = opts.maxIntervalSeconds * 1000;
  }

  /**
   * The event itself under its own key while its group is small; past that, a new aggregate event
   * (named as the event was, at this instant) under the group's key, so that later ones count on it.
   */
  aggregate(event: Event, nowMs: number): Aggregated {
    const { aggregateKey, localKey } = aggregatorKeys(event);
    let record = this.#cache.get(aggregateKey);
    // Measured from the last similar event, so a steady trickle keeps its group alive.
    if (record === undefined || nowMs - record.lastMs > this.#maxIntervalMs)
      record = { localKeys: new Set(), lastMs: nowMs };
    record.localKeys.add(localKey);
    record.lastMs = nowMs;
    this.#cache.add(aggregateKey, record);
    if (record.localKeys.size < this.#maxEvents) return { event, key: eventKey(event) };
    // Keep the set at its limit. client-go drops an arbitrary message (Go's map order); dropping
    // the one just added keeps the outcome deterministic: the earlier messages go on counting on
    // their own events, each new one on the aggregate.
    record.localKeys.delete(localKey);
    // The event is new (count 1, both timestamps now, named for this instant), so the aggregate is
    // the event with its message prefixed, less its reporter: client-go's copy leaves out
    // reportingComponent and reportingInstance, so its JSON carries both as empty strings.
    const aggregate: Event = {
      ...event,
      message: aggregateMessagePrefix + (event.message ?? ''),
      count: 1,
      reportingComponent: '',
      reportingInstance: '',
    };
    return { event: aggregate, key: aggregateKey };
  }
}

/** A token bucket as golang.org/x/time/rate's Limiter keeps it, on a passive clock. */
interface TokenBucket {
  tokens: number;
  lastMs: number | undefined;
}

/** Drops what a source writes about one object past a token bucket (EventSourceObjectSpamFilter). */
export class EventSpamFilter {
  readonly #cache: LruCache<TokenBucket>;
  readonly #burst: number;
  /** The refill rate as client-go holds it: a float32 (1/300 rounds up, so 300 s makes a token). */
  readonly #qps: number;

  constructor(opts: { entries: number; burst: number; qps: number }) {
    this.#cache = new LruCache(opts.entries);
    this.#burst = opts.burst;
    this.#qps = Math.fround(opts.qps);
  }

  /** True when the event is to be dropped. */
  filter(event: Event, nowMs: number): boolean {
    const key = spamKey(event);
    const bucket = this.#cache.get(key) ?? { tokens: this.#burst, lastMs: undefined };
    const accepted = this.#tryAccept(bucket, nowMs);
    this.#cache.add(key, bucket);
    return !accepted;
  }

  /** rate.Limiter.AllowN(now, 1): takes a token when one is there (no wait to the nanosecond). */
  #tryAccept(bucket: TokenBucket, nowMs: number): boolean {
    const elapsedSeconds = bucket.lastMs === undefined ? 0 : Math.max(0, nowMs - bucket.lastMs) / 1000;
    const left = Math.min(this.#burst, bucket.tokens + elapsedSeconds * this.#qps) - 1;
    if (left < 0 && Math.trunc((1e9 * -left) / this.#qps) > 0) return false;
    bucket.tokens = left;
    bucket.lastMs = nowMs;
    return true;
  }
}
