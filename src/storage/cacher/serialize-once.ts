// Serialize a watch event once, however many watchers send it (kube's cachingObject). The cacher hands
// every watcher of a change the same frozen WatchEvent object; the encoded form is memoized against
// that object per encoder, so the HTTP layer pays one encode per event and encoder, not per watcher.
// Events that reach no serializer are collected with their memo (a WeakMap holds it).
import type { KubeObject } from '../../api/meta.js';
import type { WatchEvent } from '../interfaces.js';

/** An encoding of watch events; `id` names it (media type, group version) so memos do not mix. */
export interface WatchEventEncoder<Out> {
  readonly id: string;
  encode(event: WatchEvent): Out;
}

const memo = new WeakMap<object, Map<string, unknown>>();

/** The encoder's output for this event, computed on first use and reused after. */
export function encodeWatchEventOnce<Out, T extends KubeObject>(
  event: WatchEvent<T>,
  encoder: WatchEventEncoder<Out>,
): Out {
  let byEncoder = memo.get(event);
  if (byEncoder === undefined) memo.set(event, (byEncoder = new Map<string, unknown>()));
  if (byEncoder.has(encoder.id)) return byEncoder.get(encoder.id) as Out;
  const out = encoder.encode(event);
  byEncoder.set(encoder.id, out);
  return out;
}

/** `{"type":…,"object":…}` as JSON bytes plus a newline: one frame of a JSON watch stream. */
export const jsonWatchEventEncoder: WatchEventEncoder<Buffer> = Object.freeze({
  id: 'application/json;watch-frame',
  encode: (event: WatchEvent) =>
    Buffer.from(`${JSON.stringify({ type: event.type, object: event.object })}\n`),
});

/** The JSON watch frame of an event, encoded once per event. */
export function watchEventJson<T extends KubeObject>(event: WatchEvent<T>): Buffer {
  return encodeWatchEventOnce(event, jsonWatchEventEncoder);
}
