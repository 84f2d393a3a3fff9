// The FieldsV1 encoding of a field set (structured-merge-diff fieldpath/serialize.go): a JSON
// object keyed by element (`f:`, `k:`, `v:`, `i:`), `{}` for a member, and `.` for a member that
// also has children.
import { isJSONObject, type JSONObject } from '../json.js';
import {
  comparePathElements,
  InvalidPathElement,
  parsePathElementKey,
  pathElementKey,
  type PathElement,
} from './path-element.js';
import { FieldSet, type SetSource, type SourceElement } from './set.js';

/**
 * FieldsV1 objects known to be as encoding writes them (or as a write of them was stored) and
 * valid: built by encodeFieldsV1 or addedFieldsV1, found canonical when decoded, or decoded from
 * bytes this process encoded from such objects (storage/managed-fields-span.ts). Decoding one
 * skips the check, which walks every key: an update decodes every manager's entry of the live
 * object, and the previous write produced them.
 */
const knownCanonical = new WeakSet<object>();

/** Whether `value` is a FieldsV1 object known to be canonical and valid (knownCanonical). */
export function isKnownCanonicalFieldsV1(value: unknown): boolean {
  return typeof value === 'object' && value !== null && knownCanonical.has(value);
}

/**
 * Marks a FieldsV1 object decoded from bytes that were encoded from known canonical objects: the
 * decode gives them back as they were written. Only the storage codec calls it.
 */
export function trustDecodedFieldsV1(value: unknown): void {
  if (isJSONObject(value)) knownCanonical.add(value);
}

function emit(set: FieldSet, includeSelf: boolean): JSONObject {
  const source = set.canonicalSource;
  // A decoded set that is still its source encodes as the source, `.` included when it has one.
  if (source !== undefined && Object.hasOwn(source, '.') === includeSelf) return source;
  const out: JSONObject = {};
  if (includeSelf && !set.empty()) out['.'] = {};
  for (const e of set.entries()) out[e.key] = e.child === undefined ? {} : emit(e.child, e.member);
  return out;
}

/** The FieldsV1 object of a set. */
export function encodeFieldsV1(set: FieldSet): JSONObject {
  const out = emit(set, false);
  knownCanonical.add(out);
  return out;
}

const fieldPrefix = 'f:';

/** A non-field key's element, and whether the key is written as encoding writes it. */
interface ParsedKey {
  readonly pe: PathElement;
  readonly canonical: boolean;
}

/**
 * Parsed non-field keys: managedFields repeat the same keys (containers, ports, env names) from
 * one object to the next, and parsing them means JSON. Bounded: emptied when full.
 */
const parsedKeys = new Map<string, ParsedKey>();
const maxParsedKeys = 4096;

/** parsePathElementKey for a key that is not a field's; throws InvalidPathElement as it does. */
function parseKey(key: string): ParsedKey {
  let parsed = parsedKeys.get(key);
  if (parsed === undefined) {
    const pe = parsePathElementKey(key);
    parsed = { pe, canonical: pathElementKey(pe) === key };
    if (parsedKeys.size >= maxParsedKeys) parsedKeys.clear();
    parsedKeys.set(key, parsed);
  }
  return parsed;
}

const isEmptyObject = (value: JSONObject): boolean => {
  for (const _ in value) return false;
  return true;
};

/** How a member's FieldsV1 value reads: `{}` or `.` make it a member, other keys give it children. */
function shape(value: JSONObject): { member: boolean; parent: boolean } {
  let member = false;
  let parent = false;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if (k === '.') member = true;
    else parent = true;
  }
  return { member: member || !parent, parent };
}

/** What check found of a level: whether it is as encoding writes it, and what keys it has. */
const canonicalLevel = 1;
const hasDot = 2;
const hasElements = 4;

/**
 * Checks a FieldsV1 object as decoding reads it, throwing InvalidPathElement where decoding
 * fails, and tells whether encoding its set gives the object back unchanged: keys as encoding
 * writes them and in its order, `.` first, only beside other keys, and `{}` everywhere else.
 * One pass over every key, depth first as decoding goes.
 */
function check(obj: JSONObject, root: boolean): number {
  let canonical = true;
  let keys = 0;
  let previous: string | undefined;
  let previousPe: PathElement | undefined;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue;
    const value = obj[key];
    if (key === '.') {
      keys |= hasDot;
      // Decoding ignores what `.` holds; encoding writes `{}`.
      canonical &&= !root && previous === undefined && isJSONObject(value) && isEmptyObject(value);
      continue;
    }
    keys |= hasElements;
    const parsed = key.startsWith(fieldPrefix) ? undefined : parseKey(key);
    if (!isJSONObject(value)) throw new InvalidPathElement(`expected an object for ${JSON.stringify(key)}`);
    const pe = parsed?.pe;
    if (parsed !== undefined) canonical &&= parsed.canonical;
    // In encoding's order: fields by name first, then other elements by comparePathElements.
    if (canonical && previous !== undefined) {
      canonical =
        pe === undefined
          ? previousPe === undefined && previous < key
          : previousPe === undefined || comparePathElements(previousPe, pe) <= 0;
    }
    previous = key;
    previousPe = pe;
    const below = check(value, false);
    // A member without children encodes as `{}`, not `{".":{}}`.
    canonical &&= (below & canonicalLevel) !== 0 && below !== (canonicalLevel | hasDot);
  }
  return (canonical ? canonicalLevel : 0) | keys;
}

/** The elements of one checked level. */
function readLevel(obj: JSONObject, source: SetSource): SourceElement[] {
  const out: SourceElement[] = [];
  for (const key in obj) {
    if (key === '.' || !Object.hasOwn(obj, key)) continue;
    const value = obj[key] as JSONObject;
    let pe: PathElement;
    let canonicalKey = key;
    if (key.startsWith(fieldPrefix)) pe = { kind: 'field', name: key.slice(fieldPrefix.length) };
    else {
      const parsed = parseKey(key);
      pe = parsed.pe;
      if (!source.canonical && !parsed.canonical) canonicalKey = pathElementKey(pe);
    }
    const { member, parent } = shape(value);
    out.push({ pe, key: canonicalKey, member, below: parent ? value : undefined });
  }
  return out;
}

/** The set a FieldsV1 object encodes; throws InvalidPathElement on a malformed one. */
export function decodeFieldsV1(obj: unknown): FieldSet {
  if (!isJSONObject(obj)) throw new InvalidPathElement('FieldsV1 must be a JSON object');
  if (knownCanonical.has(obj)) return FieldSet.fromSource({ object: obj, read: readLevel, canonical: true });
  const canonical = (check(obj, true) & canonicalLevel) !== 0;
  if (canonical) knownCanonical.add(obj);
  return FieldSet.fromSource({ object: obj, read: readLevel, canonical });
}

/** The set of a FieldsV1 object written as encoding writes it (addedFieldsV1's), which needs no check. */
export function fieldSetOfEncoded(obj: JSONObject): FieldSet {
  knownCanonical.add(obj);
  return FieldSet.fromSource({ object: obj, read: readLevel, canonical: true });
}
