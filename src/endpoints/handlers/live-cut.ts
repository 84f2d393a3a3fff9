// A PUT body usually carries back, byte for byte, much of the live object its client read: the
// managedFields (about half of a Pod's JSON) and every top-level member it left alone (a controller
// that sets a label sends the spec and status back as it read them). Parsing and decoding those
// bytes again would give the live object's decoded values, which the try that gets the live object
// holds already. Where the body's bytes equal the live object's (the watch cache's served JSON,
// whose managedFields span the encoder recorded), the body is decoded without them, and that try
// completes it from the live object: a JSON value starting at the same bytes as a complete JSON
// value is that value.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../api/meta.js';
import { copyAsJSON } from '../../machinery/json/copy-as-json.js';
import { closeBrace, comma, isSpace, openBrace, skipSpace } from '../../machinery/json/json-bytes.js';
import { setMember } from '../../machinery/json/set-member.js';
import { isJSONObject } from '../../machinery/patch/json.js';
import type { RequestContext } from '../../registry/rest/context.js';
import { isEncodedGetter, type Storage } from '../../registry/rest/capabilities.js';
import { managedFieldsSpanOf, recordedMembers } from '../../storage/managed-fields-span.js';
import type { CutBody } from '../request/decode-object.js';

const managedFieldsKey = Buffer.from('"managedFields":');
// Stands for a cut value in the text parsed; no client can send it, so finding it where it was put
// after the parse proves the cut member was that one.
const marker = `capstan-cut-${randomUUID()}`;
const markerText = JSON.stringify(marker);

/** The body with the parts that equal the live object's cut out, and that object's revision. */
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

/** A member cut from the body: its first byte, its value's, past its end; its name. */
interface Cut {
  readonly key: string;
  readonly start: number;
  readonly value: number;
  readonly end: number;
}

/** The body's metadata.managedFields when their value's bytes are the live JSON's. */
function managedFieldsCut(body: Buffer, live: Buffer, span: { start: number; end: number }): Cut | undefined {
  const start = body.indexOf(managedFieldsKey);
  if (start < 0) return undefined;
  const value = start + managedFieldsKey.length;
  const end = value + (span.end - span.start);
  if (end > body.length || body.compare(live, span.start, span.end, value, end) !== 0) return undefined;
  return { key: 'managedFields', start, value, end };
}

/**
 * The top-level members with object values that follow metadata in the body as they follow it in
 * the live JSON, byte for byte, from the first (at `from` in the body) up to the first that differs;
 * the live JSON's are where the encoder recorded them (recordedMembers).
 */
function memberCuts(body: Buffer, from: number, live: Buffer): Cut[] {
  const out: Cut[] = [];
  let at = from;
  for (const m of recordedMembers(live) ?? []) {
    const next = at + (m.end - m.start);
    if (next > body.length || body.compare(live, m.start, m.end, at, next) !== 0) break;
    if (m.key !== undefined && m.key !== '__proto__' && live[m.value] === openBrace)
      out.push({ key: m.key, start: at, value: at + (m.value - m.start), end: next });
    at = next;
  }
  return out;
}

/**
 * The body's text with the parts that repeat the live JSON's bytes cut out: its first
 * metadata.managedFields member and, when that closes the body's metadata as it closes the live
 * JSON's, the top-level members after it that repeat the live ones in their places; undefined when
 * nothing can be cut (no span recorded for the live bytes, other bytes in the body).
 */
export function cutLive(body: Buffer, live: Buffer): LiveCut | undefined {
  const span = managedFieldsSpanOf(live);
  if (span === undefined || span.rv === 0) return undefined;
  const entries = managedFieldsCut(body, live, span);
  if (entries === undefined) return undefined;
  // managedFields are metadata's last member in Go's order: its brace closes right after them.
  const members =
    span.members?.[0] === span.end + 1 && live[span.end] === closeBrace && body[entries.end] === closeBrace
      ? memberCuts(body, entries.end + 1, live)
      : [];
  return { ...cutText(body, entries, members), marker, resourceVersion: String(span.rv) };
}

/**
 * The text (a marker for each cut value) and the raw text (without the managedFields member, `{}`
 * for each member's value) of a body with those cuts; the members' follow the entries'.
 */
function cutText(body: Buffer, entries: Cut, members: readonly Cut[]): Omit<CutBody, 'marker'> {
  let text = body.toString('utf8', 0, entries.value) + markerText;
  // Without the managedFields member, the comma that joined it to a neighbour goes too.
  let from = entries.start;
  let to = entries.end;
  let before = from - 1;
  while (before > 0 && isSpace(body[before])) before--;
  const after = skipSpace(body, to);
  if (body[before] === comma) from = before;
  else if (body[after] === comma) to = after + 1;
  let raw = body.toString('utf8', 0, from);
  let at = entries.end;
  let rawAt = to;
  for (const m of members) {
    text += body.toString('utf8', at, m.value) + markerText;
    raw += body.toString('utf8', rawAt, m.value) + '{}';
    at = rawAt = m.end;
  }
  text += body.toString('utf8', at);
  raw += body.toString('utf8', rawAt);
  return { text, raw, members: members.map((m) => m.key) };
}

/**
 * How a body decoded without the parts cut is completed (defaultUpdatedObjectInfo's `completes`):
 * from a live object at the revision they were cut against, with a list of its own of that object's
 * managedFields entries (they are only read: the field manager replaces the list) and a copy of each
 * cut member (admission and the strategy may change what they get); not from any other (the cache
 * was behind storage, or a conflict brought a newer one).
 */
export function completingFromLive(cut: LiveCut): (obj: KubeObject, old: KubeObject | null) => boolean {
  return (obj, old) => {
    if (old === null || old.metadata?.resourceVersion !== cut.resourceVersion) return false;
    const entries = old.metadata.managedFields;
    const from = old as Record<string, unknown>;
    if (entries === undefined || !cut.members.every((key) => isJSONObject(from[key]))) return false;
    (obj.metadata ??= {}).managedFields = [...entries];
    for (const key of cut.members) setMember(obj, key, copyAsJSON(from[key]));
    return true;
  };
}
