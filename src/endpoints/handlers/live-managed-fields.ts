// A PUT body usually carries back, byte for byte, the managedFields its client read: about half of
// a Pod's JSON, and of the parse, the repeated-key scan and the decode of the body. When the bytes
// equal the live object's (the watch cache's served JSON, whose managedFields span the encoder
// recorded), the body is decoded without them and the try that gets the live object takes its
// decoded entries: a JSON value starting at the same bytes as a complete JSON value is that value.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../api/meta.js';
import type { RequestContext } from '../../registry/rest/context.js';
import { isEncodedGetter, type Storage } from '../../registry/rest/capabilities.js';
import { managedFieldsSpanOf } from '../../storage/managed-fields-span.js';
import type { CutBody } from '../request/decode-object.js';

const memberKey = '"managedFields":';
const memberKeyBytes = Buffer.from(memberKey);
// Stands for the cut value in the text parsed; no client can send it, so finding it at
// metadata.managedFields after the parse proves the cut member was that one.
const marker = `capstan-cut-${randomUUID()}`;
const markerText = JSON.stringify(marker);

/** The body without the managedFields that equal the live object's, and that object's revision. */
export interface LiveCut extends CutBody {
  readonly resourceVersion: string;
}

/** The live object's served JSON from the watch cache, if it holds the object (never a storage read). */
export async function cachedLiveJSON(
  storage: Storage,
  ctx: RequestContext,
  name: string,
): Promise<Buffer | undefined> {
  if (!isEncodedGetter(storage)) return undefined;
  try {
    return await storage.getEncoded(ctx, name, { resourceVersion: '0', cachedOnly: true });
  } catch {
    return undefined;
  }
}

/**
 * The body's text with its first managedFields member cut out when its value's bytes are the live
 * JSON's managedFields; undefined otherwise (no recorded span, no such member, other bytes).
 */
export function cutLiveManagedFields(body: Buffer, live: Buffer): LiveCut | undefined {
  const span = managedFieldsSpanOf(live);
  if (span === undefined || span.rv === 0) return undefined;
  const key = body.indexOf(memberKeyBytes);
  if (key < 0) return undefined;
  const start = key + memberKeyBytes.length;
  const end = start + (span.end - span.start);
  if (end > body.length || body.compare(live, span.start, span.end, start, end) !== 0) return undefined;
  // Both cuts fall next to ASCII bytes (the key's colon, the array's bracket): no character splits.
  const before = body.toString('utf8', 0, start);
  const after = body.toString('utf8', end);
  let head = before.slice(0, before.length - memberKey.length).trimEnd();
  let tail = after.trimStart();
  // Without the member, the comma that joined it to a neighbour goes too.
  if (head.endsWith(',')) head = head.slice(0, -1);
  else if (tail.startsWith(',')) tail = tail.slice(1);
  return {
    text: before + markerText + after,
    raw: head + tail,
    marker,
    resourceVersion: String(span.rv),
  };
}

/**
 * How a body decoded without its managedFields is completed (defaultUpdatedObjectInfo's
 * `completes`): from a live object at the revision they were cut against, with a list of its own of
 * that object's entries (they are only read: the field manager replaces the list); not from any
 * other (the cache was behind storage, or a conflict brought a newer one).
 */
export function withLiveManagedFields(
  resourceVersion: string,
): (obj: KubeObject, old: KubeObject | null) => boolean {
  return (obj, old) => {
    const entries = old?.metadata?.managedFields;
    if (entries === undefined || old?.metadata?.resourceVersion !== resourceVersion) return false;
    (obj.metadata ??= {}).managedFields = [...entries];
    return true;
  };
}
