// The entries of one level of a FieldSet, and how a decoded set reads a level from FieldsV1.
import type { JSONObject } from '../json.js';
import type { PathElement } from './path-element.js';
import type { FieldSet } from './set.js';

/** One element of a level, as the encoder reads it. */
export interface FieldSetEntry {
  readonly pe: PathElement;
  /** pathElementKey(pe). */
  readonly key: string;
  readonly member: boolean;
  /** The members below the element; never an empty set. */
  readonly child: FieldSet | undefined;
}

export interface Entry extends FieldSetEntry {
  member: boolean;
  child: FieldSet | undefined;
  /** Whether `child` belongs to this set alone (made by insertion), so it may be written into. */
  owned: boolean;
}

/** A copy of an entry for another set: the same child, borrowed. */
export const share = (e: Entry): Entry => ({
  pe: e.pe,
  key: e.key,
  member: e.member,
  child: e.child,
  owned: false,
});

export function entry(
  pe: PathElement,
  key: string,
  parts: { member: boolean; child?: FieldSet | undefined },
): Entry {
  return { pe, key, member: parts.member, child: parts.child, owned: false };
}

/** An element of a FieldsV1 level, and the FieldsV1 object of the members below it if any. */
export interface SourceElement {
  readonly pe: PathElement;
  readonly key: string;
  readonly member: boolean;
  readonly below: JSONObject | undefined;
}

/** Where a decoded set reads its levels from. */
export interface SetSource {
  readonly object: JSONObject;
  /** The elements of one level; the object was checked when decoded, so this does not throw. */
  readonly read: (object: JSONObject, source: SetSource) => readonly SourceElement[];
  /** Whether encoding the set gives `object` back as it is, key order included. */
  readonly canonical: boolean;
}

/** The entries of a source's level; `childOf` makes the (lazy) set of an object below it. */
export function readEntries(source: SetSource, childOf: (below: JSONObject) => FieldSet): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const el of source.read(source.object, source)) {
    const child = el.below === undefined ? undefined : childOf(el.below);
    const e = out.get(el.key);
    if (e === undefined) out.set(el.key, entry(el.pe, el.key, { member: el.member, child }));
    else {
      // Two spellings of one element (`k:{"a":1,"b":2}`, `k:{"b":2,"a":1}`) make one entry.
      e.member ||= el.member;
      if (child !== undefined) e.child = e.child === undefined ? child : e.child.union(child);
    }
  }
  return out;
}
