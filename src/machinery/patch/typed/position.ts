// Where a walk over a typed value is, for walkers that build field sets as they go: the element
// that reached the position and, for each set the walk fills, the level below it. Elements, keys
// and levels are made when first needed, so the unchanged parts of a value cost no sets or keys.
import { fieldKey, pathElementKey, type Path, type PathElement } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import { itemKey } from './item-index.js';
import type { ListNode } from './type-node.js';

export class Position {
  readonly #parent: Position | undefined;
  /** The field name that reached this position, when its element is a field. */
  readonly #name: string | undefined;
  #pe: PathElement | undefined;
  /** The list type of an item's position, whose keys it renders once. */
  readonly #list: ListNode | undefined;
  #key: string | undefined;
  /** Per output set, the level below this position; the root's are the sets themselves. */
  #levels: (FieldSet | undefined)[] | undefined;

  private constructor(
    parent: Position | undefined,
    step: { name?: string; pe?: PathElement; list?: ListNode },
  ) {
    this.#parent = parent;
    this.#name = step.name;
    this.#pe = step.pe;
    this.#list = step.list;
  }

  /** The root of a walk filling `sets`. */
  static root(sets: readonly FieldSet[]): Position {
    const root = new Position(undefined, {});
    root.#levels = [...sets];
    return root;
  }

  field(name: string): Position {
    return new Position(this, { name });
  }

  /** The position of an item of a list of type `list`. */
  element(pe: PathElement, list: ListNode): Position {
    return new Position(this, { pe, list });
  }

  get pe(): PathElement {
    this.#pe ??= { kind: 'field', name: this.#name ?? '' };
    return this.#pe;
  }

  get key(): string {
    if (this.#key === undefined) {
      if (this.#name !== undefined) this.#key = fieldKey(this.#name);
      else this.#key = this.#list === undefined ? pathElementKey(this.pe) : itemKey(this.#list, this.pe);
    }
    return this.#key;
  }

  /** Makes this position a member of output set `i`; the root is never one. */
  mark(i: number): void {
    this.#parent?.level(i).insertMemberAt(this.pe, this.key);
  }

  /** Makes this position's field `name` a member of output set `i`, without a position for it. */
  markField(i: number, name: string): void {
    this.level(i).insertMemberAt({ kind: 'field', name }, fieldKey(name));
  }

  /** Puts a whole set (not to be inserted into afterwards) below this position in output set `i`. */
  adopt(i: number, set: FieldSet): void {
    if (set.empty() || this.#parent === undefined) return;
    this.#parent.level(i).insertChildAt(this.pe, this.key, set);
    this.#levels ??= [];
    this.#levels[i] = set;
  }

  /** Whether anything was put in output set `i` below this position. */
  hasLevel(i: number): boolean {
    return this.#levels?.[i] !== undefined;
  }

  /** The level of output set `i` below this position, created (with its parents) when missing. */
  level(i: number): FieldSet {
    this.#levels ??= [];
    let set = this.#levels[i];
    if (set === undefined) {
      // Only the root has no parent, and its levels are all set.
      set = (this.#parent as Position).level(i).childAt(this.pe, this.key);
      this.#levels[i] = set;
    }
    return set;
  }

  /** The path from the root, for messages. */
  path(): Path {
    if (this.#parent === undefined) return [];
    return [...this.#parent.path(), this.pe];
  }
}
