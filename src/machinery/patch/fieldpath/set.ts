// A set of field paths stored as a tree (structured-merge-diff fieldpath/set.go): at each level the
// elements that are members themselves, and the children that lead to deeper members.
import { comparePathElements, pathElementKey, type Path, type PathElement } from './path-element.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

const byElement = <T extends { pe: PathElement }>(a: T, b: T): number => comparePathElements(a.pe, b.pe);

export class FieldSet {
  readonly #members = new Map<string, PathElement>();
  readonly #children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (mutates; used while building a set). */
  insert(path: Path): void {
    const [first, ...rest] = path;
    if (first === undefined) return;
    const key = pathElementKey(first);
    if (rest.length === 0) {
      this.#members.set(key, first);
      return;
    }
    this.#childFor(first, key).insert(rest);
  }

  /** The child set under `pe`, created when missing (mutates). */
  #childFor(pe: PathElement, key: string): FieldSet {
    let child = this.#children.get(key);
    if (child === undefined) {
      child = { pe, set: new FieldSet() };
      this.#children.set(key, child);
    }
    return child.set;
  }

  insertMember(pe: PathElement): void {
    this.#members.set(pathElementKey(pe), pe);
  }

  /** Puts a whole set under `pe` (mutates). */
  insertChild(pe: PathElement, set: FieldSet): void {
    if (set.#members.size === 0 && set.#children.size === 0) return;
    const target = this.#childFor(pe, pathElementKey(pe));
    target.#mergeFrom(set);
  }

  #mergeFrom(other: FieldSet): void {
    for (const [k, pe] of other.#members) this.#members.set(k, pe);
    for (const [k, c] of other.#children) this.#childFor(c.pe, k).#mergeFrom(c.set);
  }

  has(path: Path): boolean {
    const [first, ...rest] = path;
    if (first === undefined) return false;
    const key = pathElementKey(first);
    if (rest.length === 0) return this.#members.has(key);
    return this.#children.get(key)?.set.has(rest) ?? false;
  }

  hasMember(pe: PathElement): boolean {
    return this.#members.has(pathElementKey(pe));
  }

  /** The paths under `pe`, relative to it. */
  withPrefix(pe: PathElement): FieldSet {
    return this.#children.get(pathElementKey(pe))?.set ?? new FieldSet();
  }

  empty(): boolean {
    if (this.#members.size > 0) return false;
    for (const c of this.#children.values()) if (!c.set.empty()) return false;
    return true;
  }

  /** Members at this level, sorted. */
  members(): PathElement[] {
    return [...this.#members.values()].sort(comparePathElements);
  }

  /** Children at this level, sorted by element. */
  children(): Child[] {
    return [...this.#children.values()].sort(byElement);
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.#mergeFrom(this);
    out.#mergeFrom(other);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.#members) if (other.#members.has(k)) out.#members.set(k, pe);
    for (const [k, c] of this.#children) {
      const o = other.#children.get(k);
      if (o !== undefined) out.insertChild(c.pe, c.set.intersection(o.set));
    }
    return out;
  }

  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.#members) if (!other.#members.has(k)) out.#members.set(k, pe);
    for (const [k, c] of this.#children) {
      const o = other.#children.get(k);
      out.insertChild(c.pe, o === undefined ? c.set : c.set.difference(o.set));
    }
    return out;
  }

  /** Like difference, but a member of `other` also removes everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.#members) if (!other.#members.has(k)) out.#members.set(k, pe);
    for (const [k, c] of this.#children) {
      if (other.#members.has(k)) continue;
      const o = other.#children.get(k);
      out.insertChild(c.pe, o === undefined ? c.set : c.set.recursiveDifference(o.set));
    }
    return out;
  }

  /** Every member path, members of a level before its children, each level in element order. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = this.members().map((pe) => [...prefix, pe]);
    for (const c of this.children()) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).empty() && other.difference(this).empty();
  }
}
