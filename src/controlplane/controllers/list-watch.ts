// A minimal reflector for the built-in controllers: list, hand every item over, watch from the list's
// revision, and relist on every end of the watch (after a backoff when it failed or ended on its own,
// e.g. a 410 Gone or storage closing) and on each resync, until stopped.
import type { KubeObject } from '../../api/meta.js';
import type { EncodedLister, Lister, Watcher } from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';
import { servedJSONOf } from '../../storage/served-json.js';

export type ListWatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ListWatchOptions {
  readonly source: Lister & Watcher;
  readonly signal: AbortSignal;
  /** Each listed item is an ADDED event, unless onList or onEncodedList takes the list. */
  readonly onEvent: (type: ListWatchEventType, obj: KubeObject) => void;
  /** Takes each list whole (a cache replacing what it held) instead of ADDED events. */
  readonly onList?: (items: readonly KubeObject[]) => void;
  /** The lists' resourceVersion: '0' lets the watch cache answer; default a consistent read. */
  readonly listResourceVersion?: string;
  readonly onError: (err: unknown) => void;
  /** Watch events whose served JSON lacks these bytes are skipped undecoded (see WatchedSource). */
  readonly mentions?: Buffer;
  /** Watch events whose served JSON is at hand and that this refuses are skipped undecoded. */
  readonly concerns?: (type: ListWatchEventType, json: Buffer) => boolean;
  /**
   * Takes watch events as the served JSON they carry, their objects left undecoded (`mentions` is
   * not consulted for them); events without JSON (a storage without a watch cache) go to onEvent.
   */
  readonly onServedJSON?: (type: ListWatchEventType, json: Buffer) => void;
  /** Takes each list as its items' JSON when the source lists encoded (instead of onList). */
  readonly onEncodedList?: (items: readonly Buffer[]) => void;
  /** How often to relist even though the watch is fine (default 5 minutes). */
  readonly resyncPeriodMs?: number | undefined;
}

/** False only when the event's JSON is at hand and lacks `mentions` or is refused by `concerns`. */
function mayConcern(event: object, type: ListWatchEventType, o: ListWatchOptions): boolean {
  if (o.mentions === undefined && o.concerns === undefined) return true;
  const json = servedJSONOf(event);
  if (json === undefined) return true;
  if (o.mentions !== undefined && !json.includes(o.mentions)) return false;
  return o.concerns === undefined || o.concerns(type, json);
}

const backoff = { initialMs: 100, maxMs: 30_000 };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const encodedListerOf = (source: object): EncodedLister | undefined =>
  typeof (source as Partial<EncodedLister>).listEncoded === 'function'
    ? (source as EncodedLister)
    : undefined;

/** Lists through whichever of the callbacks takes the list; answers the list's resourceVersion. */
async function listOnce(o: ListWatchOptions, ctx: RequestContext): Promise<string | undefined> {
  const options = o.listResourceVersion === undefined ? {} : { resourceVersion: o.listResourceVersion };
  const encoded = o.onEncodedList === undefined ? undefined : encodedListerOf(o.source);
  if (encoded !== undefined) {
    const list = await encoded.listEncoded(ctx, options);
    o.onEncodedList?.(list.items);
    return list.metadata.resourceVersion;
  }
  const list = await o.source.list(ctx, options);
  if (o.onList !== undefined) o.onList(list.items);
  else for (const item of list.items) o.onEvent('ADDED', item);
  return list.metadata.resourceVersion;
}

async function listAndWatch(o: ListWatchOptions): Promise<void> {
  const ctx = internalContext({ signal: o.signal });
  const rv = await listOnce(o, ctx);
  const watch = await o.source.watch(ctx, rv === undefined || rv === '' ? {} : { resourceVersion: rv });
  const resync = { due: false };
  const timer = setTimeout(() => {
    resync.due = true;
    watch.stop();
  }, o.resyncPeriodMs ?? 300_000);
  const stop = (): void => {
    watch.stop();
  };
  o.signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const event of watch) {
      if (event.type === 'ERROR') throw new Error(event.object.message ?? 'watch error');
      if (event.type === 'BOOKMARK') continue;
      const json = o.onServedJSON === undefined ? undefined : servedJSONOf(event);
      if (json !== undefined) o.onServedJSON?.(event.type, json);
      else if (mayConcern(event, event.type, o)) o.onEvent(event.type, event.object);
    }
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener('abort', stop);
    watch.stop();
  }
  if (!resync.due && !o.signal.aborted) throw new Error('the watch ended');
}

/** Runs until `signal` aborts. */
export async function runListWatch(o: ListWatchOptions): Promise<void> {
  const stopped = (): boolean => o.signal.aborted;
  let wait = backoff.initialMs;
  while (!stopped()) {
    try {
      await listAndWatch(o);
      wait = backoff.initialMs;
    } catch (err) {
      if (stopped()) return;
      o.onError(err);
      await sleep(wait, o.signal);
      wait = Math.min(wait * 2, backoff.maxMs);
    }
  }
}
