// The FieldsV1 encoding of a field set (structured-merge-diff fieldpath/serialize.go): a JSON
// object keyed by element (`f:`, `k:`, `v:`, `i:`), `{}` for a member, and `.` for a member that
// also has children.
import { isJSONObject, type JSONObject } from '../json.js';
import {
  InvalidPathElement,
  parsePathElementKey,
  pathElementKey,
} from './path-element.js';
import { FieldSet } from './set.js';

function emit(set: FieldSet, includeSelf: boolean): JSONObject {
  const out: JSONObject = {};
  if (includeSelf && !set.empty()) out['.'] = {};
  for (const e of set.entries()) out[e.key] = e.child === undefined ? {} : emit(e.child, e.member);
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
    // A field's key is canonical as written; others may be spelled differently (`k:{"b":1,"a":2}`).
    const canonical = pe.kind === 'field' ? key : pathElementKey(pe);
    let member = false;
    let parent = false;
    for (const k in value) {
      if (k === '.') member = true;
      else parent = true;
      if (member && parent) break;
    }
    if (member || !parent) into.insertMemberAt(pe, canonical);
    if (parent) read(value, into.childAt(pe, canonical));
  }
}

/** The set a FieldsV1 object encodes; throws InvalidPathElement on a malformed one. */
export function decodeFieldsV1(obj: unknown): FieldSet {
  if (!isJSONObject(obj)) throw new InvalidPathElement('FieldsV1 must be a JSON object');
  const set = new FieldSet();
  read(obj, set);
  return set;
}
