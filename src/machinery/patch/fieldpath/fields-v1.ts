// The FieldsV1 encoding of a field set (structured-merge-diff fieldpath/serialize.go): a JSON
// object keyed by element (`f:`, `k:`, `v:`, `i:`), `{}` for a member, and `.` for a member that
// also has children.
import { isJSONObject, type JSONObject } from '../json.js';
import {
  comparePathElements,
  InvalidPathElement,
  parsePathElementKey,
  pathElementKey,
} from './path-element.js';
import { FieldSet } from './set.js';

function emit(set: FieldSet, includeSelf: boolean): JSONObject {
  const out: JSONObject = {};
  const members = set.members();
  const children = set.children();
  if (includeSelf && (members.length > 0 || children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    const cmp = m === undefined ? 1 : c === undefined ? -1 : comparePathElements(m, c.pe);
    if (cmp < 0 && m !== undefined) {
      out[pathElementKey(m)] = {};
      mi++;
    } else if (c !== undefined) {
      out[pathElementKey(c.pe)] = emit(c.set, cmp === 0);
      if (cmp === 0) mi++;
      ci++;
    }
  }
  return out;
}

/** The FieldsV1 object of a set. */
export function encodeFieldsV1(set: FieldSet): JSONObject {
  return emit(set, false);
}

function read(obj: JSONObject, into: FieldSet): void {
  for (const [key, value] of Object.entries(obj)) {
    if (key === '.') continue;
    const pe = parsePathElementKey(key);
    if (!isJSONObject(value)) throw new InvalidPathElement(`expected an object for ${JSON.stringify(key)}`);
    const keys = Object.keys(value);
    if (keys.length === 0 || keys.includes('.')) into.insertMember(pe);
    if (keys.some((k) => k !== '.')) {
      const child = new FieldSet();
      read(value, child);
      into.insertChild(pe, child);
    }
  }
}

/** The set a FieldsV1 object encodes; throws InvalidPathElement on a malformed one. */
export function decodeFieldsV1(obj: unknown): FieldSet {
  if (!isJSONObject(obj)) throw new InvalidPathElement('FieldsV1 must be a JSON object');
  const set = new FieldSet();
  read(obj, set);
  return set;
}
