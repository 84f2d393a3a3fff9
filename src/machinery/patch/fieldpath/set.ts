// A set of field paths stored as a tree (structured-merge-diff fieldpath/set.go). Each level maps
// an element's FieldsV1 key to whether the element is a member itself and the set below it, so a
// walker that builds a set level by level computes each key once, and encoding reuses it.
// A set is built by its insert methods and is a value afterwards: the set operations share
// unchanged subtrees between inputs and results (and may return an input itself), so a set handed
// to or returned by one is not inserted into; inserting below a borrowed subtree copies it first.
// A set decoded from FieldsV1 reads each level from the JSON when first asked, so an update reads
// only the levels it changes of the sets it does not own; encoding a set that is still its source
// gives the source back.
import type { JSONObject } from '../json.js';
import { comparePathElements, pathElementKey, type Path, type PathElement } from './path-element.js';
import { entry, readEntries, share, type Entry, type FieldSetEntry, type SetSource } from './set-entry.js';
import { sortSmall } from '../../json/small-sort.js';

export type { FieldSetEntry, SetSource, SourceElement } from './set-entry.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

const byElement = (a: FieldSetEntry, b: FieldSetEntry): number => comparePathElements(a.pe, b.pe);

/** What withChildren's caller makes of an entry that has a child. */
type ChildMapper<C> = (
  e: FieldSetEntry & { child: FieldSet },
  context: C,
) => { member: boolean; child: FieldSet };

export class FieldSet {
  #entries: Map<string, Entry> | undefined;
  /** Set while the entries are still to be read from FieldsV1, and kept while they are unchanged. */
  #source: SetSource | undefined;
  /** The entries in element order, until the next insertion. */
  #sorted: Entry[] | undefined;

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** A set whose levels are read from a checked FieldsV1 object when first needed. */
  static fromSource(source: SetSource): FieldSet {
    const s = new FieldSet();
    s.#source = source;
    return s;
  }

  /** The FieldsV1 object the set was decoded from, when encoding the set gives exactly that. */
  get canonicalSource(): JSONObject | undefined {
    return this.#source?.canonical === true ? this.#source.object : undefined;
  }

  get #level(): Map<string, Entry> {
    this.#entries ??= this.#read();
    return this.#entries;
  }

  #read(): Map<string, Entry> {
    const source = this.#source;
    if (source === undefined) return new Map();
    return readEntries(source, (below) => FieldSet.fromSource({ ...source, object: below }));
  }

  /** The entries, for writing: the set no longer is its source. */
  get #writable(): Map<string, Entry> {
    const level = this.#level;
    this.#source = undefined;
    return level;
  }

  /** Adds a path (mutates; used while building a set). */
  insert(path: Path): void {
    let below: FieldSet | undefined;
    for (let i = 0; i < path.length; i++) {
      const pe = path[i] as PathElement;
      const set = below ?? this;
      if (i === path.length - 1) set.insertMember(pe);
      else below = set.childAt(pe, pathElementKey(pe));
    }
  }

  /** Adds `pe` as a member (mutates). */
  insertMember(pe: PathElement): void {
    this.insertMemberAt(pe, pathElementKey(pe));
  }

  /** insertMember for a walker that knows the element's key already. */
  insertMemberAt(pe: PathElement, key: string): void {
    const level = this.#writable;
    const e = level.get(key);
    if (e !== undefined) e.member = true;
    else {
      level.set(key, { pe, key, member: true, child: undefined, owned: false });
      this.#sorted = undefined;
    }
  }

  /**
   * The set below `pe`, created when missing, for a walker to insert into (mutates). The walker
   * must insert something: a set keeps no empty children.
   */
  childAt(pe: PathElement, key: string): FieldSet {
    const e = this.#writable.get(key);
    if (e === undefined) {
      const child = new FieldSet();
      this.#add({ pe, key, member: false, child, owned: true });
      return child;
    }
    if (e.child === undefined || !e.owned) {
      e.child = e.child === undefined ? new FieldSet() : e.child.#copy();
      e.owned = true;
    }
    return e.child;
  }

  /** Puts a whole set under `pe` (mutates); `set` is not to be inserted into afterwards. */
  insertChild(pe: PathElement, set: FieldSet): void {
    this.insertChildAt(pe, pathElementKey(pe), set);
  }

  /** insertChild for a walker that knows the element's key already. */
  insertChildAt(pe: PathElement, key: string, set: FieldSet): void {
    if (set.empty()) return;
    const e = this.#writable.get(key);
    if (e === undefined) this.#add(entry(pe, key, { member: false, child: set }));
    else {
      e.child = e.child === undefined ? set : e.child.union(set);
      e.owned = false;
    }
  }

  #add(e: Entry): void {
    this.#writable.set(e.key, e);
    this.#sorted = undefined;
  }

  /** A level-deep copy whose children are all borrowed. */
  #copy(): FieldSet {
    return FieldSet.#over(this.#prefix(this.#level.size));
  }

  static #over(level: Map<string, Entry>): FieldSet {
    const set = new FieldSet();
    set.#entries = level;
    return set;
  }

  has(path: Path): boolean {
    const [first, ...rest] = path;
    if (first === undefined) return false;
    const e = this.#level.get(pathElementKey(first));
    if (rest.length === 0) return e?.member ?? false;
    return e?.child?.has(rest) ?? false;
  }

  hasMember(pe: PathElement): boolean {
    return this.#level.get(pathElementKey(pe))?.member ?? false;
  }

  /** The paths under `pe`, relative to it. */
  withPrefix(pe: PathElement): FieldSet {
    return this.#level.get(pathElementKey(pe))?.child ?? new FieldSet();
  }

  empty(): boolean {
    return this.#level.size === 0;
  }

  /** The elements of this level in element order: members, parents of members, or both. */
  entries(): readonly FieldSetEntry[] {
    this.#sorted ??= sortSmall([...this.#level.values()], byElement);
    return this.#sorted;
  }

  /** Members at this level, sorted. */
  members(): PathElement[] {
    const out: PathElement[] = [];
    for (const e of this.entries()) if (e.member) out.push(e.pe);
    return out;
  }

  /** Children at this level, sorted by element. */
  children(): Child[] {
    const out: Child[] = [];
    for (const e of this.entries()) if (e.child !== undefined) out.push({ pe: e.pe, set: e.child });
    return out;
  }

  union(other: FieldSet): FieldSet {
    if (other === this || other.empty()) return this;
    if (this.empty()) return other;
    const out = this.#copy();
    const level = out.#level;
    for (const o of other.#level.values()) {
      const e = level.get(o.key);
      if (e === undefined) {
        level.set(o.key, share(o));
        continue;
      }
      e.member ||= o.member;
      if (o.child !== undefined) e.child = e.child === undefined ? o.child : e.child.union(o.child);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    if (other === this) return this;
    const mine = this.#level;
    const theirs = other.#level;
    const level = new Map<string, Entry>();
    // Look up the smaller level's keys in the larger; the elements are this set's either way.
    const small = mine.size <= theirs.size ? mine : theirs;
    for (const key of small.keys()) {
      const e = mine.get(key);
      const o = theirs.get(key);
      if (e === undefined || o === undefined) continue;
      const member = e.member && o.member;
      const child =
        e.child === undefined || o.child === undefined ? undefined : e.child.intersection(o.child);
      const kept = child?.empty() === false ? child : undefined;
      if (member || kept !== undefined) level.set(key, entry(e.pe, key, { member, child: kept }));
    }
    return FieldSet.#over(level);
  }

  difference(other: FieldSet): FieldSet {
    if (other === this) return new FieldSet();
    return this.#without(other, false);
  }

  /** Like difference, but a member of `other` also removes everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.#without(other, true);
  }

  /** This set less `other`'s members; `this` itself when they have nothing in common. */
  #without(other: FieldSet, recursive: boolean): FieldSet {
    if (other.empty() || this.empty()) return this;
    return this.#mapEntries(FieldSet.#entryWithout, { theirs: other.#level, recursive });
  }

  /** Entry `e` less its like in `theirs`: `e` itself when nothing goes, undefined when all does. */
  static #entryWithout(
    e: Entry,
    without: { theirs: Map<string, Entry>; recursive: boolean },
  ): Entry | undefined {
    const o = without.theirs.get(e.key);
    if (o === undefined) return e;
    if (without.recursive && o.member) return undefined;
    const member = e.member && !o.member;
    let child = e.child;
    if (child !== undefined && o.child !== undefined) child = child.#without(o.child, without.recursive);
    if (member === e.member && child === e.child) return e;
    const kept = child?.empty() === false ? child : undefined;
    return member || kept !== undefined ? entry(e.pe, e.key, { member, child: kept }) : undefined;
  }

  /** Each entry with a child given `f`'s member flag and (non-empty) child; this set itself when none changes. */
  withChildren<C>(f: ChildMapper<C>, context: C): FieldSet {
    return this.#mapEntries(FieldSet.#entryWithChild<C>, { f, context });
  }

  static #entryWithChild<C>(e: Entry, mapper: { f: ChildMapper<C>; context: C }): Entry {
    if (e.child === undefined) return e;
    const made = mapper.f({ pe: e.pe, key: e.key, member: e.member, child: e.child }, mapper.context);
    return made.member === e.member && made.child === e.child ? e : entry(e.pe, e.key, made);
  }

  /**
   * Each entry replaced by `f`'s (itself when unchanged, undefined to drop it); this set itself
   * when none changes. `f` takes a context instead of closing over one: this runs for each level.
   */
  #mapEntries<C>(f: (e: Entry, context: C) => Entry | undefined, context: C): FieldSet {
    let out: Map<string, Entry> | undefined;
    let index = 0;
    for (const e of this.#level.values()) {
      const next = f(e, context);
      if (next !== e && out === undefined) out = this.#prefix(index);
      if (out !== undefined && next !== undefined) out.set(e.key, next === e ? share(e) : next);
      index++;
    }
    return out === undefined ? this : FieldSet.#over(out);
  }

  /** This set's first `count` entries, their children borrowed. */
  #prefix(count: number): Map<string, Entry> {
    const out = new Map<string, Entry>();
    let i = 0;
    for (const e of this.#level.values()) {
      if (i++ >= count) break;
      out.set(e.key, share(e));
    }
    return out;
  }

  /** Every member path, members of a level before its children, each level in element order. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = this.members().map((pe) => [...prefix, pe]);
    for (const c of this.children()) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  /**
   * Whether every member of this set is one of `other`'s: difference(other).empty() without
   * building the difference. A set still to be read from FieldsV1 is walked in its source, without
   * making its levels (a re-apply asks this of the manager's last applied set, which it then drops).
   */
  isSubsetOf(other: FieldSet): boolean {
    if (other === this) return true;
    const canonical = this.#unreadCanonical();
    if (canonical !== undefined) return FieldSet.#canonicalMatches(canonical, other, false);
    const source = this.#source;
    if (this.#entries === undefined && source !== undefined) {
      return FieldSet.#sourceWithin(source, source.object, other);
    }
    for (const e of this.#level.values()) {
      const o = other.#level.get(e.key);
      if (o === undefined || (e.member && !o.member)) return false;
      if (e.child !== undefined && (o.child === undefined || !e.child.isSubsetOf(o.child))) return false;
    }
    return true;
  }

  /** The canonical FieldsV1 object the set is still to be read from; undefined once read or not canonical. */
  #unreadCanonical(): JSONObject | undefined {
    return this.#entries === undefined && this.#source?.canonical === true ? this.#source.object : undefined;
  }

  /**
   * Whether the set a canonical FieldsV1 level encodes is within `other` (equal to it when
   * `equal`), read straight from the level's keys: canonical keys are the keys `other`'s entries
   * have, each element is written once, and its object is `{}` for a member without children,
   * `.` first for a member with children. Nothing is allocated; an equality check of an update's
   * set with the manager's previous one, unchanged, reads none of its levels.
   */
  static #canonicalMatches(object: JSONObject, other: FieldSet, equal: boolean): boolean {
    const level = other.#level;
    let elements = 0;
    for (const key in object) {
      if (key === '.' || !Object.hasOwn(object, key)) continue;
      elements++;
      const o = level.get(key);
      if (o === undefined) return false;
      const below = object[key] as JSONObject;
      let first: string | undefined;
      for (const k in below) {
        first = k;
        break;
      }
      const member = first === undefined || first === '.';
      if (member ? !o.member : equal && o.member) return false;
      if (first === undefined) {
        if (equal && o.child !== undefined) return false;
        continue;
      }
      const child = o.child;
      if (child === undefined) return false;
      if (child.#unreadCanonical() === below) continue;
      if (!FieldSet.#canonicalMatches(below, child, equal)) return false;
    }
    return !equal || elements === level.size;
  }

  /** isSubsetOf for one level of a FieldsV1 source (two spellings of an element are checked alike). */
  static #sourceWithin(source: SetSource, object: JSONObject, other: FieldSet): boolean {
    for (const el of source.read(object, source)) {
      const o = other.#level.get(el.key);
      if (o === undefined || (el.member && !o.member)) return false;
      if (el.below === undefined) continue;
      if (o.child === undefined || !FieldSet.#sourceWithin(source, el.below, o.child)) return false;
    }
    return true;
  }

  equals(other: FieldSet): boolean {
    if (other === this) return true;
    const theirSource = other.#unreadCanonical();
    if (theirSource !== undefined) return FieldSet.#canonicalMatches(theirSource, this, true);
    const mySource = this.#unreadCanonical();
    if (mySource !== undefined) return FieldSet.#canonicalMatches(mySource, other, true);
    const mine = this.#level;
    const theirs = other.#level;
    if (mine.size !== theirs.size) return false;
    for (const e of mine.values()) {
      const o = theirs.get(e.key);
      if (o?.member !== e.member) return false;
      if (e.child === undefined || o.child === undefined) {
        if (e.child !== o.child) return false;
      } else if (!e.child.equals(o.child)) return false;
    }
    return true;
  }
}
