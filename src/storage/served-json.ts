// An object's JSON as a read answers it: the stored bytes with `metadata.resourceVersion` spliced
// in. Storage keeps objects without their resourceVersion (it is the store's revision, as in
// kube's etcd3 store), so a read would otherwise decode, set it and encode again; splicing the field
// into the bytes serves the stored encoding as it is. The splice goes where Go's ObjectMeta puts
// the field, after name, namespace and uid, which stored objects hold first (the codec writes
// them in kube's order), so the search stays within the first hundred-odd bytes. A custom resource
// is stored as kube writes a Go map, keys sorted at every level (`apiVersion` before `kind`, where a
// struct starts with `kind`): resourceVersion then goes among its metadata's members in sorted order.
import type { KubeObject } from '../api/meta.js';
import { objectMetaBeforeResourceVersion } from '../machinery/json/kube-member-order.js';
import { apiVersionBeforeKind, compareGoKeys } from '../machinery/json/sorted-members.js';
import {
  closeBrace,
  colon,
  openBrace,
  quote,
  skipSpace,
  skipString,
  skipValue,
} from '../machinery/json/json-bytes.js';
import { managedFieldsSpanOf, recordServedSpan } from './managed-fields-span.js';
import { keepOn } from './kept-on.js';

/** Served JSON and where the spliced resourceVersion member sits in it (`[rvStart, rvEnd)`). */
export interface ServedJSON {
  readonly json: Buffer;
  readonly rvStart: number;
  /** Past the member and the comma that follows it, if any. */
  readonly rvEnd: number;
}

/**
 * A ServedJSON. The offsets go in as small integers: an offset that reached here as a boxed number
 * (optimized code may box an integer) turns the field into a double field of every ServedJSON, and
 * each one then holds two boxes more, which every mark-compact walks (one per cached object).
 */
function servedJSONAt(json: Buffer, rvStart: number, rvEnd: number): ServedJSON {
  return { json, rvStart: rvStart | 0, rvEnd: rvEnd | 0 };
}

const metadataKey = Buffer.from('metadata');
const apiVersionKey = Buffer.from('apiVersion');
const kindKey = Buffer.from('kind');

/** How the members of a stored object's metadata are ordered: as Go's ObjectMeta, or sorted (a map). */
type MetadataOrder = 'go' | 'sorted';

/** Whether the key whose text starts at `start` and ends before the closing quote at `end` is `key`. */
const isKey = (buf: Buffer, key: Buffer, span: { start: number; end: number }): boolean =>
  buf.compare(key, 0, key.length, span.start, span.end) === 0;

/**
 * The position just inside the top-level `metadata` object (-1 when there is none), and its
 * members' order: sorted when `apiVersion` comes before `kind`, as in a map (a struct starts with
 * `kind`; keys that sort before `apiVersion`, as `"7"` or `"Zeta"`, may precede it in a map).
 */
function metadataBody(buf: Buffer): { at: number; order: MetadataOrder } {
  let i = skipSpace(buf, 0);
  if (buf[i] !== openBrace) return { at: -1, order: 'go' };
  i++;
  let apiVersion = false;
  let order: MetadataOrder = 'go';
  for (;;) {
    i = skipSpace(buf, i);
    if (buf[i] !== quote) return { at: -1, order: 'go' };
    const keyStart = i + 1;
    i = skipString(buf, i);
    if (i < 0) return { at: -1, order: 'go' };
    const span = { start: keyStart, end: i - 1 };
    const isMetadata = isKey(buf, metadataKey, span);
    if (isKey(buf, apiVersionKey, span)) apiVersion = true;
    else if (isKey(buf, kindKey, span)) order = apiVersion ? 'sorted' : 'go';
    i = skipSpace(buf, i);
    if (buf[i] !== colon) return { at: -1, order: 'go' };
    i = skipSpace(buf, i + 1);
    if (isMetadata) {
      return { at: buf[i] === openBrace ? i + 1 : -1, order };
    }
    i = skipValue(buf, i);
    if (i < 0) return { at: -1, order: 'go' };
    i = skipSpace(buf, i);
    if (buf[i] !== 0x2c) return { at: -1, order: 'go' };
    i++;
  }
}

/** The position just inside the top-level `metadata` object, or -1 when there is none. */
export function metadataBodyOffset(buf: Buffer): number {
  return metadataBody(buf).at;
}

/** Whether a metadata member comes before resourceVersion in that order. */
const beforeResourceVersion: Readonly<Record<MetadataOrder, (key: string) => boolean>> = {
  go: (key) => objectMetaBeforeResourceVersion.has(key),
  sorted: (key) => compareGoKeys(key, 'resourceVersion') < 0,
};

const rvKey = Buffer.from('"resourceVersion"');

/**
 * Where resourceVersion goes in a metadata body starting at `at`: past the members Go's ObjectMeta
 * puts before it (name, generateName, namespace, selfLink, uid), which stored objects hold first,
 * or in sorted metadata past those that sort before it.
 * The member found there (its key's quote, or the closing brace), and whether members precede it.
 */
function resourceVersionSlot(
  buf: Buffer,
  body: { at: number; order: MetadataOrder },
): { pos: number; after: boolean } | null {
  const before = beforeResourceVersion[body.order];
  // Sorted metadata has managedFields (half a typical object) before resourceVersion: where the
  // encoder recorded them in these bytes, the walk steps over them rather than through them.
  const entries = managedFieldsSpanOf(buf);
  let i = skipSpace(buf, body.at);
  let after = false;
  for (;;) {
    if (buf[i] === closeBrace) return { pos: i, after };
    if (buf[i] !== quote) return null;
    const keyEnd = skipString(buf, i);
    if (keyEnd < 0) return null;
    const key = buf.toString('latin1', i + 1, keyEnd - 1);
    if (!before(key)) return { pos: i, after };
    let j = skipSpace(buf, keyEnd);
    if (buf[j] !== colon) return null;
    j = skipSpace(buf, j + 1);
    j = entries !== undefined && j === entries.start ? entries.end : skipValue(buf, j);
    if (j < 0) return null;
    j = skipSpace(buf, j);
    after = true;
    if (buf[j] === closeBrace) return { pos: j, after };
    if (buf[j] !== 0x2c) return null;
    i = skipSpace(buf, j + 1);
  }
}

/**
 * Sets an object's `metadata.resourceVersion` where its stored member order has it (after uid in Go's
 * ObjectMeta; among the sorted members of a custom resource's, one with `apiVersion` before `kind`),
 * as a decode of the served JSON would: a member added to an object goes last, so
 * metadata without one is rebuilt with it in place. `metadata` must be the caller's own.
 */
export function placeResourceVersion(obj: KubeObject, rv: number): void {
  const meta = obj.metadata as Record<string, unknown> | undefined;
  if (meta === undefined || Object.hasOwn(meta, 'resourceVersion')) return;
  const sorted = apiVersionBeforeKind(obj);
  const before = beforeResourceVersion[sorted ? 'sorted' : 'go'];
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(meta)) {
    if (!placed && !before(key)) {
      out['resourceVersion'] = String(rv);
      placed = true;
    }
    out[key] = meta[key];
  }
  if (!placed) out['resourceVersion'] = String(rv);
  obj.metadata = out;
}

/** The member as spliced: with a trailing comma before another member, a leading one at the end. */
function member(rv: number, commas: { leading: boolean; trailing: boolean }): Buffer {
  return Buffer.from(`${commas.leading ? ',' : ''}"resourceVersion":"${rv}"${commas.trailing ? ',' : ''}`);
}

/** The stored bytes with resourceVersion `rv`; null when they have no top-level metadata object. */
export function spliceResourceVersion(stored: Buffer, rv: number): ServedJSON | null {
  const body = metadataBody(stored);
  const at = body.at;
  if (at < 0) return null;
  const slot = resourceVersionSlot(stored, body);
  if (slot === null) return null;
  // At the closing brace after other members, the comma goes first; before a member, after.
  const end = stored[slot.pos] === closeBrace;
  const start = end && slot.after ? slot.pos : end ? at : slot.pos;
  const piece = member(rv, { leading: end && slot.after, trailing: !end });
  return servedJSONAt(
    Buffer.concat([stored.subarray(0, start), piece, stored.subarray(start)]),
    start,
    start + piece.length,
  );
}

/** The same JSON at another resourceVersion (a deletion carries the last state at its own revision). */
export function withResourceVersion(served: ServedJSON, rv: number): ServedJSON {
  const { json, rvStart, rvEnd } = served;
  const piece = member(rv, { leading: json[rvStart] === 0x2c, trailing: json[rvEnd - 1] === 0x2c });
  return servedJSONAt(
    Buffer.concat([json.subarray(0, rvStart), piece, json.subarray(rvEnd)]),
    rvStart,
    rvStart + piece.length,
  );
}

/** The stored bytes the served JSON was made from. */
export function storedBytes(served: ServedJSON): Buffer {
  return Buffer.concat([served.json.subarray(0, served.rvStart), served.json.subarray(served.rvEnd)]);
}

/** Whether `bytes` are the stored bytes the served JSON was made from, without putting them together. */
export function isStoredBytes(served: ServedJSON, bytes: Buffer): boolean {
  const { json, rvStart, rvEnd } = served;
  const tail = json.length - rvEnd;
  return (
    bytes.length === rvStart + tail &&
    bytes.compare(json, 0, rvStart, 0, rvStart) === 0 &&
    bytes.compare(json, rvEnd, json.length, rvStart, bytes.length) === 0
  );
}

/**
 * Served JSON as spliceResourceVersion makes it, with its resourceVersion member found again (after
 * the ObjectMeta members Go puts before it); null for JSON not in that form.
 */
export function locateResourceVersion(json: Buffer): ServedJSON | null {
  const body = metadataBody(json);
  if (body.at < 0) return null;
  const slot = resourceVersionSlot(json, body);
  if (slot === null || slot.pos + rvKey.length + 2 > json.length) return null;
  const pos = slot.pos;
  if (json.compare(rvKey, 0, rvKey.length, pos, pos + rvKey.length) !== 0) return null;
  if (json[pos + rvKey.length] !== colon || json[pos + rvKey.length + 1] !== quote) return null;
  const close = json.indexOf(quote, pos + rvKey.length + 2);
  if (close < 0) return null;
  if (json[close + 1] === 0x2c) return servedJSONAt(json, pos, close + 2);
  // The last member: its leading comma is part of it when members precede it.
  const start = slot.after ? json.lastIndexOf(0x2c, pos) : pos;
  return servedJSONAt(json, start, close + 1);
}

// A write's served JSON is wanted twice: by the response to the write and by the watch cache fed by
// its event, both holding the written object. Whichever comes first splices; the other reuses it.
// The memo is kept on the object (kept-on.ts).
const splicedKey: unique symbol = Symbol('served JSON of a write');

interface WithSpliced {
  [splicedKey]?: { readonly rv: number; readonly served: ServedJSON | null };
}

/** The served JSON of a written object, spliced once per object and revision. */
export function servedOfWrite(object: object, stored: Buffer, rv: number): ServedJSON | null {
  const memo = (object as WithSpliced)[splicedKey];
  if (memo?.rv === rv) return memo.served;
  const served = spliceResourceVersion(stored, rv);
  if (served !== null)
    recordServedSpan(stored, served.json, {
      at: served.rvStart,
      inserted: served.rvEnd - served.rvStart,
      rv,
    });
  keepOn(object, splicedKey, { rv, served });
  return served;
}

// The served JSON of objects handed out without decoding (a write's object, the watch cache's
// events), so a writer reaches the bytes of an object it is passed. Kept on the holder (kept-on.ts).
const servedKey: unique symbol = Symbol('served JSON');

interface WithServed {
  [servedKey]?: Buffer;
}

/** Attaches `json` to `holder`; a holder to be frozen takes it before. */
export function attachServedJSON(holder: object, json: Buffer): void {
  keepOn(holder, servedKey, json);
}

/** The JSON attached to `holder`, if any. */
export function servedJSONOf(holder: object): Buffer | undefined {
  return (holder as WithServed)[servedKey];
}
