// Serves a watch as chunked, newline-delimited JSON events (handlers/watch.go WatchServer):
// `{"type":"ADDED","object":{…}}`, until the storage ends it, the timeout passes or the client goes.
import type { Watcher } from '../../registry/rest/capabilities.js';
import type { RequestContext } from '../../registry/rest/context.js';
import type { ListOptions } from '../../registry/rest/options.js';
import { encodedOnce } from '../../storage/cacher/watch-cache-event.js';
import { servedJSONOf } from '../../storage/served-json.js';
import type { WatchEvent } from '../../storage/watch-chan.js';
import { orderedStatus } from '../../machinery/errors/status-order.js';
import { systemClock } from '../../machinery/time/clock.js';
import { secondsDurationMs } from '../../machinery/time/go-duration.js';
import { header } from '../http-types.js';
import { negotiateOutputMediaTypeStream, type MediaTypeOptions } from '../negotiation/negotiate.js';
import { inGoOrder } from '../responsewriters/go-order.js';
import { objectJSONText } from '../responsewriters/serialize.js';
import { beginChunkedStream, writeStreamed } from '../responsewriters/chunked-stream.js';
import type { HandlerRequest, RequestScope } from './request-scope.js';
import { tableOptionsFor, transformObject } from './transform.js';

export interface WatchRequest {
  readonly ctx: RequestContext;
  readonly media: MediaTypeOptions;
  readonly options: ListOptions;
  readonly storage: Watcher;
}

/**
 * timeoutSeconds, else minRequestTimeout stretched by a random factor in [1, 2) so watches do not end
 * together; 0 when neither is set (the watch lasts until the client leaves). As kube's
 * GetTimeoutForWatch: a negative timeoutSeconds is kept (such a watch times out at once), and the
 * seconds become a Go Duration, whose nanoseconds wrap past 2^63 (secondsDurationMs).
 */
export function watchTimeoutMs(timeoutSeconds: number | undefined, minRequestTimeoutSeconds: number): number {
  const asked = timeoutSeconds === undefined ? 0 : secondsDurationMs(timeoutSeconds);
  if (asked !== 0) return asked;
  if (minRequestTimeoutSeconds <= 0) return 0;
  return minRequestTimeoutSeconds * 1000 * (1 + Math.random());
}

type Encoder = (event: WatchEvent) => string;

/**
 * An event's plain JSON frame. The watch cache hands every watcher of a change the same event, so a
 * change is framed once however many watchers send it (encodedOnce, kube's cachingObject). An event
 * of the watch cache carries its object's served JSON, written as it is (nothing decoded); any other
 * built-in object is written as its stored bytes would be, with the zero members Go writes that
 * decoding left out.
 */
export function jsonFrame(event: WatchEvent): string {
  return encodedOnce(event, jsonFrame, () => {
    const served = event.type === 'ERROR' ? undefined : servedJSONOf(event);
    const object =
      served !== undefined
        ? served.toString('utf8')
        : objectJSONText(event.type === 'ERROR' ? orderedStatus(event.object) : inGoOrder(event.object));
    return `{"type":${JSON.stringify(event.type)},"object":${object}}\n`;
  });
}

function eventEncoder(scope: RequestScope, hr: HandlerRequest, w: WatchRequest): Encoder {
  const include = tableOptionsFor(w.media, hr.ex.url.searchParams);
  if (w.media.convert === null) return jsonFrame;
  let first = true;
  return (event) => {
    let object: unknown = event.type === 'ERROR' ? orderedStatus(event.object) : event.object;
    if (event.type !== 'ERROR') {
      object = transformObject(scope, { ctx: w.ctx, result: event.object, include }, w.media.convert);
      // Column headers go out with the first event only, as kube's NoHeaders does after it.
      if (w.media.convert?.kind === 'Table' && !first)
        object = { ...(object as object), columnDefinitions: null };
      first = false;
    }
    return `{"type":${JSON.stringify(event.type)},"object":${objectJSONText(object)}}\n`;
  };
}

export async function serveWatch(scope: RequestScope, hr: HandlerRequest, w: WatchRequest): Promise<void> {
  const ex = hr.ex;
  negotiateOutputMediaTypeStream(header(ex.req, 'accept'), scope.restrictions);
  const encode = eventEncoder(scope, hr, w);
  const timeoutMs = watchTimeoutMs(w.options.timeoutSeconds, scope.config.minRequestTimeoutSeconds);
  // The deadline lets the watch cache send a bookmark just before the watch times out.
  const clock = scope.config.clock ?? systemClock;
  const ctx = timeoutMs !== 0 ? { ...w.ctx, deadline: clock.now() + timeoutMs } : w.ctx;
  const watch = await w.storage.watch(ctx, w.options);
  const stop = (): void => {
    watch.stop();
  };
  // A watch in progress is work its client waits for: its end keeps the process alive.
  const timer =
    timeoutMs !== 0 ? clock.setTimeout(stop, Math.max(0, timeoutMs), { keepAlive: true }) : undefined;
  hr.signal.addEventListener('abort', stop);
  ex.res.on('close', stop);
  try {
    beginChunkedStream(ex, 'application/json');
    for await (const event of watch) {
      const written = writeStreamed(ex, { bytes: encode(event), signal: hr.signal });
      if (written === false || (written !== true && !(await written))) break;
    }
  } finally {
    timer?.cancel();
    hr.signal.removeEventListener('abort', stop);
    ex.res.off('close', stop);
    watch.stop();
    if (!ex.res.destroyed) ex.res.end();
  }
}
