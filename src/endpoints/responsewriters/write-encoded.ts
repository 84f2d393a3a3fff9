// Responses made of JSON the storage already holds (the watch cache's encodings): a get writes the
// object's bytes as they are; a list is assembled around its items' bytes and streamed, so a list of
// any size starts at once and is never built as one string. Large lists are gzipped on the way out
// when the client accepts it (kube's 128 KiB threshold), off the event loop.
import { createGzip, type Gzip } from 'node:zlib';
import type { ListMeta } from '../../api/meta.js';
import { orderedListMeta } from '../../machinery/errors/status-order.js';
import { goJSONText } from '../../machinery/json/go-json-text.js';
import { unstructuredListMeta } from '../../machinery/json/unstructured-list.js';
import { withoutTypeMeta } from '../../machinery/json/without-type-meta.js';
import { endResponse, writeChunk, type ApiResponse } from '../http-types.js';
import type { MediaTypeOptions } from '../negotiation/negotiate.js';
import type { Exchange } from './exchange.js';
import { acceptsGzip, flushWarnings, gzipThresholdBytes, isPrettyPrint } from './write-response.js';

const newline = Buffer.from('\n');
const comma = Buffer.from(',');
const listEnd = Buffer.from(']}\n');
/** Pieces are joined into writes of about this size. */
const writeBytes = 256 * 1024;

/** Whether the response is the object itself as compact JSON, which stored encodings can serve. */
export function servesEncoded(ex: Exchange, media: MediaTypeOptions): boolean {
  return (
    media.convert === null &&
    media.accepted.mediaType === 'application/json' &&
    !media.pretty &&
    !isPrettyPrint(ex)
  );
}

/** Writes one object's JSON (as Go's Encoder would: newline-terminated). */
export function writeEncodedObject(ex: Exchange, code: number, json: Buffer): void {
  const { res } = ex;
  if (res.headersSent) {
    res.end();
    return;
  }
  flushWarnings(ex);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', String(json.length + 1));
  res.statusCode = code;
  // Two writes the response corks into one: no copy of the JSON to add its newline.
  writeChunk(res, json);
  endResponse(res, newline);
}

/** A list of encoded items: the list's type and metadata, then each item's JSON. */
export interface EncodedListBody {
  readonly kind: string;
  readonly apiVersion: string;
  readonly metadata: ListMeta;
  readonly items: readonly Buffer[];
  /** Write the items without their kind and apiVersion (a list of a built-in kind). */
  readonly omitItemTypeMeta?: boolean;
  /**
   * A list of custom resources, which kube writes as a Go map (UnstructuredList): its members
   * sorted (`apiVersion`, `items`, `kind`, `metadata`), its metadata's too, `continue` always there.
   */
  readonly unstructured?: boolean;
}

/** What goes before the items and after them. */
function listEnvelope(list: EncodedListBody): { head: Buffer; end: Buffer } {
  if (list.unstructured === true) {
    const metadata = unstructuredListMeta(list.metadata);
    const tail = goJSONText({ kind: list.kind, metadata });
    return {
      head: Buffer.from(`{"apiVersion":${goJSONText(list.apiVersion)},"items":[`),
      end: Buffer.from(`],${tail.slice(1)}\n`),
    };
  }
  const metadata = orderedListMeta(list.metadata);
  const head = goJSONText({ kind: list.kind, apiVersion: list.apiVersion, metadata });
  return { head: Buffer.from(`${head.slice(0, -1)},"items":[`), end: listEnd };
}

/**
 * Resolves when `sink` can take more; false when the response went away (or the sink failed) first.
 * Its listeners go as soon as either happens: a long list waits for many drains on one response.
 */
function drained(sink: NodeJS.WritableStream, res: ApiResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const settle = (ok: boolean): void => {
      sink.off('drain', onDrain);
      sink.off('error', onGone);
      res.off('close', onGone);
      resolve(ok);
    };
    const onDrain = (): void => {
      settle(true);
    };
    const onGone = (): void => {
      settle(false);
    };
    sink.on('drain', onDrain);
    sink.on('error', onGone);
    res.on('close', onGone);
  });
}

/** An item's JSON as it is, or as the pieces that leave out its kind and apiVersion. */
type ItemBytes = Buffer | readonly Buffer[];

const itemLength = (item: ItemBytes): number =>
  Buffer.isBuffer(item) ? item.length : item.reduce((n, piece) => n + piece.length, 0);

/** The list's bytes in pieces of about writeBytes: head, items with commas, end. */
function* pieces(envelope: { head: Buffer; end: Buffer }, items: Iterable<ItemBytes>): Generator<Buffer> {
  let batch: Buffer[] = [envelope.head];
  let size = batch[0]?.length ?? 0;
  let first = true;
  for (const item of items) {
    if (!first) batch.push(comma);
    first = false;
    if (Buffer.isBuffer(item)) batch.push(item);
    else batch.push(...item);
    size += itemLength(item) + 1;
    if (size >= writeBytes) {
      yield Buffer.concat(batch);
      batch = [];
      size = 0;
    }
  }
  batch.push(envelope.end);
  yield Buffer.concat(batch);
}

/**
 * The items as written, each made as it is written. Made for every item before the first byte
 * (an item of a built-in kind's list without its kind and apiVersion is a view and an array), they
 * held back a list of 20,000 ConfigMaps' first byte by ~20 ms.
 */
function* madeAsWritten(items: readonly Buffer[], make: (item: Buffer) => ItemBytes): Generator<ItemBytes> {
  for (const item of items) yield make(item);
}

/** Lists whose items are stored in at most this many bytes are measured before they are written. */
const measuredBytes = 2 * writeBytes;

/** Whether the items are stored in at most measuredBytes (counted no further than that). */
function measurable(items: readonly Buffer[]): boolean {
  let stored = 0;
  for (const item of items) {
    stored += item.length;
    if (stored > measuredBytes) return false;
  }
  return true;
}

function bodyLength(envelope: { head: Buffer; end: Buffer }, items: readonly ItemBytes[]): number {
  let n = envelope.head.length + envelope.end.length + Math.max(0, items.length - 1);
  for (const item of items) n += itemLength(item);
  return n;
}

/**
 * Streams a list response; resolves when it is written or the client is gone. The items of a list
 * of a built-in kind go without their kind and apiVersion (`omitItemTypeMeta`), as kube's typed
 * lists write them; custom resources keep theirs.
 */
export async function writeEncodedList(ex: Exchange, code: number, list: EncodedListBody): Promise<void> {
  const { res } = ex;
  if (res.headersSent) {
    res.end();
    return;
  }
  flushWarnings(ex);
  res.setHeader('Content-Type', 'application/json');
  const make = list.omitItemTypeMeta === true ? withoutTypeMeta : (item: Buffer): ItemBytes => item;
  const envelope = listEnvelope(list);
  // A short list is made whole and measured: its exact Content-Length. A longer one goes out
  // chunked, as kube 1.33 streams a JSON list item by item (KEP-5116), each item made as it is
  // written; it is past the gzip threshold whatever its items' type members come to.
  const made = measurable(list.items) ? list.items.map(make) : undefined;
  const length = made === undefined ? undefined : bodyLength(envelope, made);
  let sink: NodeJS.WritableStream = res;
  let gzip: Gzip | null = null;
  if ((length === undefined || length > gzipThresholdBytes) && acceptsGzip(ex)) {
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Vary', 'Accept-Encoding');
    gzip = createGzip();
    gzip.pipe(res);
    sink = gzip;
  } else if (length !== undefined) {
    res.setHeader('Content-Length', String(length));
  }
  res.statusCode = code;
  for (const piece of pieces(envelope, made ?? madeAsWritten(list.items, make))) {
    if (!sink.write(piece) && !(await drained(sink, res))) {
      gzip?.destroy();
      return;
    }
  }
  sink.end();
}
