// The set of fields a value sets (structured-merge-diff typed/tofieldset.go): every scalar, atomic
// value and list item, map entries that are not named fields, and empty or null members. Also
// reports what makes a value unfit to be applied: undeclared fields, malformed or duplicate items.
// The walk fills the set level by level (Position); paths are only made for messages.
import { pathElementString, pathString, type PathElement } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import { isJSONObject, type JSONValue } from '../json.js';
import { ItemIndex } from './item-index.js';
import { Position } from './position.js';
import {
  listItemElement,
  memberType,
  typeOf,
  TypedError,
  type ListNode,
  type MapNode,
  type SchemaResolver,
  type TypeNode,
  type TypeRef,
} from './type-node.js';

const isEmpty = (v: object): boolean => {
  for (const _ in v) return false;
  return true;
};

/**
 * The elements of a list seen so far, by their text in messages: a set's object values are the
 * same element whatever the order of their keys, other elements exactly when their keys are.
 */
class Seen {
  readonly #index = new ItemIndex<true>();
  readonly #texts = new Set<string>();

  /** Adds `pe`; false when it was there already. */
  add(pe: PathElement): boolean {
    if (pe.kind === 'value' && pe.value !== null && typeof pe.value === 'object') {
      const text = pathElementString(pe);
      if (this.#texts.has(text)) return false;
      this.#texts.add(text);
      return true;
    }
    if (this.#index.get(pe) !== undefined) return false;
    this.#index.set(pe, true);
    return true;
  }
}

/** What a walk made of a map or list value it walked into: the set below it, if any. */
interface Walked {
  readonly node: TypeNode;
  readonly set: FieldSet | undefined;
}

/** Walks of values that share subtrees: each value object's set, by identity. */
type Memo = WeakMap<object, Walked>;

class FieldsOf {
  readonly #resolver: SchemaResolver;
  /** Whether struct fields with members below are members too (ensureNamedFieldsAreMembers). */
  readonly #named: boolean;
  /** Sets of subtrees already walked, reused without walking them (and without their errors). */
  readonly #memo: Memo | undefined;
  readonly errors: string[] = [];

  constructor(resolver: SchemaResolver, opts: { named: boolean; memo?: Memo }) {
    this.#resolver = resolver;
    this.#named = opts.named;
    this.#memo = opts.memo;
  }

  walk(ref: TypeRef, value: JSONValue, at: Position): void {
    if (!this.#visit(typeOf(this.#resolver, ref, value), value, at)) at.mark(0);
  }

  /**
   * Walks into a granular list or map; false for a leaf (scalars, atomic values, and values that
   * do not have their type's shape), which the caller marks.
   */
  #visit(node: TypeNode, value: JSONValue, at: Position): boolean {
    if (node.kind === 'list' && node.listType !== 'atomic' && Array.isArray(value)) {
      this.#visitList(node, value, at);
      return true;
    }
    if (node.kind === 'map' && !node.atomic && isJSONObject(value)) {
      this.#visitMap(node, value, at);
      return true;
    }
    return false;
  }

  /** #visit below the root, through the memo. */
  #visitBelow(node: TypeNode, value: JSONValue, at: Position): boolean {
    const memo = this.#memo;
    if (memo === undefined || value === null || typeof value !== 'object')
      return this.#visit(node, value, at);
    const walked = memo.get(value);
    if (walked?.node === node) {
      if (walked.set !== undefined) at.adopt(0, walked.set);
      return true;
    }
    if (!this.#visit(node, value, at)) return false;
    memo.set(value, { node, set: at.hasLevel(0) ? at.level(0) : undefined });
    return true;
  }

  #visitList(node: ListNode, list: JSONValue[], at: Position): void {
    const seen = new Seen();
    for (let index = 0; index < list.length; index++) {
      const item = list[index] as JSONValue;
      let pe: PathElement;
      try {
        pe = listItemElement(this.#resolver, node, { value: item, index });
      } catch (err) {
        if (!(err instanceof TypedError)) throw err;
        this.errors.push(`${pathString(at.path())}: ${err.message}`);
        continue;
      }
      if (!seen.add(pe))
        this.errors.push(`${pathString(at.path())}: duplicate entries for key ${pathElementString(pe)}`);
      const child = at.element(pe, node);
      this.#visitBelow(typeOf(this.#resolver, node.element, item), item, child);
      child.mark(0);
    }
  }

  #visitMap(node: MapNode, map: Record<string, JSONValue>, at: Position): void {
    for (const key of Object.keys(map)) {
      const val = map[key] as JSONValue;
      const type = memberType(node, key);
      if (type === undefined) {
        this.errors.push(`${pathString(at.field(key).path())}: field not declared in schema`);
        continue;
      }
      const child = typeOf(this.#resolver, type, val);
      // A leaf field is a member whatever its value; no position is made for it.
      if (child.kind === 'scalar' || val === null || typeof val !== 'object') {
        at.markField(0, key);
        continue;
      }
      const below = at.field(key);
      const walked = this.#visitBelow(child, val, below);
      const emptyMap = isJSONObject(val) && isEmpty(val);
      const declared = node.fieldTypes.has(key);
      if (!walked || emptyMap || !declared || (this.#named && below.hasLevel(0))) below.mark(0);
    }
  }
}

/** The fields `value` sets, and the problems that make it invalid for its type. */
export function toFieldSet(
  resolver: SchemaResolver,
  ref: TypeRef,
  value: JSONValue,
): { set: FieldSet; errors: string[] } {
  const set = new FieldSet();
  const walk = new FieldsOf(resolver, { named: false });
  walk.walk(ref, value, Position.root([set]));
  return { set, errors: walk.errors };
}

/**
 * ensureNamedFieldsAreMembers(toFieldSet(value).set) for values of one type, made in the same
 * walk. Values that share subtrees (an object and copies of it with a few fields removed) share
 * the sets of those subtrees, walked once.
 */
export class NamedFieldSets {
  readonly #resolver: SchemaResolver;
  readonly #ref: TypeRef;
  readonly #memo: Memo = new WeakMap();

  constructor(resolver: SchemaResolver, ref: TypeRef) {
    this.#resolver = resolver;
    this.#ref = ref;
  }

  of(value: JSONValue): FieldSet {
    const set = new FieldSet();
    new FieldsOf(this.#resolver, { named: true, memo: this.#memo }).walk(
      this.#ref,
      value,
      Position.root([set]),
    );
    return set;
  }
}

/** ValidationErrors.Error(): one error as is, several under `errors:`. */
export function formatTypedErrors(errors: readonly string[]): string {
  if (errors.length === 1) return errors[0] ?? '';
  return ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
}
