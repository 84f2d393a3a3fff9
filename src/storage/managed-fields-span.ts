// Where an object's `metadata.managedFields` sits in the JSON a write stored and serves. A client
// that replaces an object (PUT) sends back the managedFields it read, about half of a Pod's bytes;
// when they are byte for byte the live object's, the update handler leaves them out of what it
// parses and takes the live object's decoded entries instead. Finding the member's end in JSON
// text takes a walk over it (brackets, strings), which costs as much as parsing it; the encoder
// knows where it wrote the member, so the place is recorded then, by identity of the bytes.
import { randomUUID } from 'node:crypto';
import type { KubeObject, ManagedFieldsEntry } from '../api/meta.js';
import type { Scheme } from '../api/scheme.js';
import { escapeGoHTML, goJSONMemberText, goJSONText } from '../machinery/json/go-json-text.js';
import { inGoMemberOrder, type KeepMember } from '../machinery/json/go-member-order.js';
import { closeBrace, quote } from '../machinery/json/json-bytes.js';
import { setMember } from '../machinery/json/set-member.js';
import { trustDecodedFieldsV1 } from '../machinery/patch/fieldpath/fields-v1.js';
import { managedFieldsPieces } from './fields-v1-text.js';
import { keepOn } from './kept-on.js';

/** Byte offsets of the managedFields array (`[` to past its `]`) in some JSON, and its revision. */
export interface ManagedFieldsSpan {
  readonly start: number;
  readonly end: number;
  /** The resourceVersion the JSON carries; 0 for stored bytes, which carry none. */
  readonly rv: number;
  /** Whether every entry's FieldsV1 was known canonical and valid when encoded (fields-v1.ts). */
  readonly trusted: boolean;
  /**
   * Where the top-level members after metadata start (each at its comma), then where the last
   * ends: what the encoder wrote after metadata's closing brace, member by member. Absent where
   * the encoder wrote them as one text.
   */
  readonly members?: readonly number[] | undefined;
}

// Stands for the member while the rest is encoded: a string no client can guess, so its text is
// found once, where the encoder put it.
const marker = `capstan-managed-fields-${randomUUID()}`;
const markerText = JSON.stringify(marker);

// The span is kept on the bytes themselves (kept-on.ts).
const spanKey: unique symbol = Symbol('managedFields span');

interface WithSpan {
  [spanKey]?: ManagedFieldsSpan;
}

/** The span recorded for these very bytes, if any. */
export function managedFieldsSpanOf(json: Buffer): ManagedFieldsSpan | undefined {
  return (json as WithSpan)[spanKey];
}

/** A member after metadata the encoder recorded: from its comma to past its value. */
export interface RecordedMember {
  /** Its name; undefined when the name has escapes (not read back from the bytes). */
  readonly key: string | undefined;
  readonly start: number;
  /** Where its value starts. */
  readonly value: number;
  readonly end: number;
}

/** The members after metadata recorded for these very bytes, in order; undefined if none were. */
export function recordedMembers(json: Buffer): RecordedMember[] | undefined {
  const offsets = managedFieldsSpanOf(json)?.members;
  if (offsets === undefined) return undefined;
  const out: RecordedMember[] = [];
  for (let i = 0; i + 1 < offsets.length; i++) {
    const start = offsets[i] ?? 0;
    // The encoder wrote `,"key":` with JSON.stringify's quotes escaped: the first quote after the
    // opening one closes the name.
    const keyEnd = json.indexOf(quote, start + 2);
    const key = json.toString('utf8', start + 2, keyEnd);
    out.push({
      key: key.includes('\\') ? undefined : key,
      start,
      value: keyEnd + 2,
      end: offsets[i + 1] ?? 0,
    });
  }
  return out;
}

/**
 * The JSON this process encoded for the object a write replaces (served or stored), and that
 * object: a member the new object shares with it by identity is copied from those bytes instead
 * of being written again. Holds while nothing changes an object in place once it was encoded.
 */
export interface LiveEncoding {
  readonly object: KubeObject;
  readonly json: Buffer;
  /**
   * The members `json` records, read from it once a member is found shared (not for a write that
   * shares none) and then kept here for the write's other steps; null when it records none.
   */
  recorded?: RecordedMember[] | null;
}

/** The recorded member of `live` that is `value`, the live object's own member `key`. */
function sharedMember(live: LiveEncoding, key: string, value: unknown): RecordedMember | undefined {
  if ((live.object as Record<string, unknown>)[key] !== value) return undefined;
  if (live.recorded === undefined) live.recorded = recordedMembers(live.json) ?? null;
  return live.recorded?.find((r) => r.key === key);
}

/**
 * A member's bytes in `live`, from its comma, when the new object shares `value` with the live one
 * under `key`; undefined when it does not, or the bytes have no members recorded.
 */
function liveMembers(live: LiveEncoding): (key: string, value: unknown) => Buffer | undefined {
  return (key, value) => {
    const m = sharedMember(live, key, value);
    return m === undefined ? undefined : live.json.subarray(m.start, m.end);
  };
}

/** Whether the encoder writes the members after metadata apart (it does for an object with entries). */
const writesMembersApart = (meta: KubeObject['metadata']): boolean =>
  meta !== undefined && Array.isArray(meta.managedFields) && meta.managedFields.length > 0;

/**
 * The members of `obj` that are the live object's own and that the live bytes record: the encoder
 * copies those from the bytes (encodeRecordingManagedFields), so putting them in order again would
 * only rebuild what the live write already ordered (Codec.inOrder). Undefined when the encoder
 * writes `obj` whole (it has no managedFields).
 */
export function keptFromLive(obj: KubeObject, live: LiveEncoding): KeepMember | undefined {
  if (!writesMembersApart(obj.metadata)) return undefined;
  return (key, value) => sharedMember(live, key, value) !== undefined;
}

/**
 * The members of `obj` up to metadata (with `managedFields` standing for the entries), and the
 * members after it: each one's `,"key":` and value texts, or its bytes in `live`. None when one of
 * them needs the whole object to be written (goJSONMemberText).
 */
function splitAfterMetadata(
  obj: KubeObject,
  meta: NonNullable<KubeObject['metadata']>,
  live: LiveEncoding | undefined,
): { head: Record<string, unknown>; after: (readonly [string, string] | Buffer)[] | undefined } {
  const head: Record<string, unknown> = {};
  let after: (readonly [string, string] | Buffer)[] | undefined;
  const fromLive = live === undefined ? undefined : liveMembers(live);
  for (const key in obj) {
    const value = (obj as Record<string, unknown>)[key];
    if (after === undefined) {
      setMember(head, key, key === 'metadata' ? { ...meta, managedFields: marker } : value);
      if (key === 'metadata') after = [];
      continue;
    }
    if (value === undefined) continue;
    const bytes = fromLive?.(key, value);
    if (bytes !== undefined) {
      after.push(bytes);
      continue;
    }
    const text = goJSONMemberText(value);
    if (text === undefined) return { head: { ...obj, metadata: head['metadata'] }, after: undefined };
    after.push([escapeGoHTML(`,${JSON.stringify(key)}:`), text]);
  }
  return { head, after };
}

const byteLength = (piece: readonly [string, string] | Buffer): number =>
  Buffer.isBuffer(piece) ? piece.length : Buffer.byteLength(piece[0]) + Buffer.byteLength(piece[1]);

function writePiece(data: Buffer, piece: readonly [string, string] | Buffer, offset: number): number {
  if (Buffer.isBuffer(piece)) return offset + piece.copy(data, offset);
  const at = offset + data.write(piece[0], offset, 'utf8');
  return at + data.write(piece[1], at, 'utf8');
}

/**
 * Go's JSON of `obj` (already in member order; `scheme` as goJSONText takes it), recording where its
 * managedFields went and where its members after metadata start: the rest encoded with a marker in
 * the entries' place, then the entries encoded and put there.
 */
export function encodeRecordingManagedFields(obj: KubeObject, scheme?: Scheme, live?: LiveEncoding): Buffer {
  const meta = obj.metadata;
  const entries = meta?.managedFields;
  if (meta === undefined || entries === undefined || !writesMembersApart(meta))
    return Buffer.from(goJSONText(obj, false, scheme), 'utf8');
  const { head, after } = splitAfterMetadata(obj, meta, live);
  // A member needs the whole object written, so members kept from the live object as they are
  // (Codec.inOrder) are written as text too: in order, with their zero members.
  const members =
    after === undefined && live !== undefined && scheme !== undefined
      ? { ...inGoMemberOrder(scheme, obj), metadata: head['metadata'] }
      : head;
  const outer = goJSONText(members, false, scheme);
  const at = outer.indexOf(markerText);
  const { pieces: inner, canonical: trusted } = managedFieldsPieces(entries);
  // The pieces written into the bytes: joined first, they made one more copy of the whole text
  // (the joined string's flattening), the largest allocation of a Pod create.
  const before = outer.slice(0, at);
  // With the members after metadata written apart, the outer text ends with metadata's brace and
  // the object's, which is written after them.
  const tail = outer.slice(at + markerText.length, after === undefined ? undefined : -1);
  const start = Buffer.byteLength(before);
  let end = start;
  for (const piece of inner) end += Buffer.byteLength(piece);
  let size = end + Buffer.byteLength(tail);
  let offsets: number[] | undefined;
  if (after !== undefined) {
    offsets = [];
    for (const piece of after) {
      offsets.push(size);
      size += byteLength(piece);
    }
    offsets.push(size++);
  }
  const data = Buffer.allocUnsafe(size);
  let offset = data.write(before, 0, 'utf8');
  for (const piece of inner) offset += data.write(piece, offset, 'utf8');
  offset += data.write(tail, offset, 'utf8');
  if (after !== undefined) {
    for (const piece of after) offset = writePiece(data, piece, offset);
    data[offset] = closeBrace;
  }
  keepOn(data, spanKey, { start, end, rv: 0, trusted, members: offsets });
  return data;
}

/**
 * Marks the FieldsV1 of `obj`'s entries as known canonical when `obj` was decoded from `json` and
 * the encoder recorded that every entry it wrote there was: an update that decodes them then skips
 * their check. Bytes this process did not encode (read back from storage, from another server) have
 * no span, and their entries are checked as ever.
 */
export function trustDecodedManagedFields(json: Buffer, obj: KubeObject): void {
  if (managedFieldsSpanOf(json)?.trusted !== true) return;
  const entries = obj.metadata?.managedFields;
  if (!Array.isArray(entries)) return;
  for (const e of entries as unknown[]) trustDecodedFieldsV1((e as ManagedFieldsEntry | null)?.fieldsV1);
}

/**
 * Records the span in `served`, the stored bytes with a resourceVersion member of `inserted` bytes
 * spliced in at `at`.
 */
export function recordServedSpan(
  stored: Buffer,
  served: Buffer,
  splice: { readonly at: number; readonly inserted: number; readonly rv: number },
): void {
  const span = managedFieldsSpanOf(stored);
  if (span === undefined) return;
  const shift = splice.at <= span.start ? splice.inserted : 0;
  keepOn(served, spanKey, {
    start: span.start + shift,
    end: span.end + shift,
    rv: splice.rv,
    trusted: span.trusted,
    members: span.members?.map((at) => (splice.at <= at ? at + splice.inserted : at)),
  });
}
