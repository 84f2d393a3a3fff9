// Field ownership across writes (structured-merge-diff merge/update.go): an update gives its
// manager what it changed and takes it from everyone else; an apply merges the configuration,
// fails on fields other managers own unless forced, and prunes what its manager stopped applying.
import type { Path } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import { isJSONObject, jsonEqual, type JSONObject, type JSONValue } from '../json.js';
import { fieldSetOfEncoded } from '../fieldpath/fields-v1.js';
import { addedFieldsV1 } from '../typed/added-fields.js';
import { compareValues, type Comparison } from '../typed/compare.js';
import { mergeValues } from '../typed/merge.js';
import { ensureNamedFieldsAreMembers } from '../typed/named-fields.js';
import { removeItems } from '../typed/remove.js';
import { formatTypedErrors, NamedFieldSets, toFieldSet } from '../typed/to-field-set.js';
import type { SchemaResolver, TypeRef } from '../typed/type-node.js';

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Manager identifier → the fields it owns. */
export type ManagedFieldSets = Map<string, VersionedSet>;

export interface Conflict {
  readonly manager: string;
  readonly path: Path;
}

export class Conflicts extends Error {
  readonly conflicts: readonly Conflict[];
  constructor(conflicts: readonly Conflict[]) {
    super(`${conflicts.length} conflicts`);
    this.conflicts = conflicts;
  }
}

/** An applied configuration that does not fit the schema. */
export class InvalidConfiguration extends Error {}

export interface UpdateInput {
  readonly version: string;
  readonly managers: ManagedFieldSets;
  readonly manager: string;
  /** Fields the write may not own (the strategy's reset fields, e.g. status on the main resource). */
  readonly ignored?: FieldSet;
}

const orEmpty = (v: JSONValue | undefined): JSONValue => v ?? {};

const noChanges: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };

function hasOthers(managers: ManagedFieldSets, manager: string): boolean {
  for (const m of managers.keys()) if (m !== manager) return true;
  return false;
}

/**
 * `next` with each top-level member that equals live's as JSON replaced by live's own value, for a
 * compare: the typed walk skips what both sides share, and a plain deep-equal walk costs a fraction
 * of a typed one. Equal JSON is no change to any compare, Go-typed or not. An update mostly leaves
 * the spec alone (a label, an annotation, the status), and the spec is most of an object. Only the
 * compare's copy shares: the new object itself goes on to admission and the strategy, which may
 * change it in place, and the registry shares the members still equal once they have
 * (shareUnchangedContent), comparing them again.
 */
function sharingEqualMembers(live: JSONValue, next: JSONValue): JSONValue {
  if (!isJSONObject(live) || !isJSONObject(next)) return next;
  let out: JSONObject | undefined;
  for (const key in next) {
    const a = live[key];
    const b = next[key];
    if (a === undefined || a === b || typeof b !== 'object' || b === null || !Object.hasOwn(live, key))
      continue;
    if (jsonEqual(a, b)) (out ??= { ...next })[key] = a;
  }
  return out ?? next;
}

export class Updater {
  readonly #resolver: SchemaResolver;
  readonly #root: TypeRef;

  constructor(resolver: SchemaResolver, root: TypeRef) {
    this.#resolver = resolver;
    this.#root = root;
  }

  #named(set: FieldSet): FieldSet {
    return ensureNamedFieldsAreMembers(this.#resolver, this.#root, set);
  }

  /** `value` without the fields of `set`; `value` itself when the set is empty. */
  #remove(value: JSONValue, set: FieldSet): JSONValue {
    if (set.empty()) return value;
    return orEmpty(removeItems(this.#resolver, this.#root, { value, set }));
  }

  /**
   * What changed from `live` to `next`, less the fields no manager may own. An update compares
   * them as Go-typed values (kube's Update converts both from their Go structs); an apply's merged
   * object is not converted.
   */
  #compare(
    pair: { live: JSONValue; next: JSONValue; goTyped: boolean },
    ignored: FieldSet | undefined,
  ): Comparison {
    const cmp = compareValues(this.#resolver, this.#root, {
      lhs: pair.live,
      rhs: pair.next,
      goTyped: pair.goTyped,
    });
    if (ignored === undefined) return cmp;
    return {
      added: cmp.added.recursiveDifference(ignored),
      modified: cmp.modified.recursiveDifference(ignored),
      removed: cmp.removed.recursiveDifference(ignored),
    };
  }

  /** Takes `cmp`'s changes from every other manager; with force false, conflicts are thrown instead. */
  #takeChanged(cmp: Comparison, input: UpdateInput & { force: boolean }): ManagedFieldSets {
    const conflicts = new Map<string, FieldSet>();
    const changed = cmp.modified.union(cmp.added);
    for (const [manager, owned] of input.managers) {
      if (manager === input.manager) continue;
      const clash = owned.set.intersection(changed);
      if (!clash.empty()) conflicts.set(manager, clash);
    }
    if (!input.force && conflicts.size > 0) {
      const list: Conflict[] = [];
      for (const [manager, set] of conflicts) for (const path of set.paths()) list.push({ manager, path });
      throw new Conflicts(list);
    }
    const out: ManagedFieldSets = new Map();
    for (const [manager, owned] of input.managers) {
      let set = owned.set;
      if (manager !== input.manager) {
        const clash = conflicts.get(manager);
        if (clash !== undefined) set = set.difference(clash);
        set = set.difference(cmp.removed);
      }
      if (!set.empty()) out.set(manager, set === owned.set ? owned : { ...owned, set });
    }
    return out;
  }

  /** Ownership after a create, update or non-apply patch that turned `live` into `next`. */
  update(pair: { live: JSONValue; next: JSONValue }, input: UpdateInput): ManagedFieldSets {
    if (input.managers.size === 0) {
      // A create: nobody else to take fields from, and next only adds to live.
      const added = addedFieldsV1(this.#resolver, this.#root, { lhs: pair.live, rhs: pair.next });
      if (added !== undefined) {
        let set = fieldSetOfEncoded(added);
        if (input.ignored !== undefined) set = set.recursiveDifference(input.ignored);
        const out: ManagedFieldSets = new Map();
        if (!set.empty()) out.set(input.manager, { set, apiVersion: input.version, applied: false });
        return out;
      }
    }
    const next = sharingEqualMembers(pair.live, pair.next);
    const cmp = this.#compare({ live: pair.live, next, goTyped: true }, input.ignored);
    const managers = this.#takeChanged(cmp, { ...input, force: true });
    const previous = managers.get(input.manager)?.set;
    const kept = previous === undefined ? cmp.added : previous.difference(cmp.removed).union(cmp.added);
    const set = kept.union(cmp.modified);
    if (set.empty()) managers.delete(input.manager);
    else managers.set(input.manager, { set, apiVersion: input.version, applied: false });
    return managers;
  }

  /**
   * The merged object (null when nothing changed) and ownership after applying `config`;
   * `configSet`, when given, is the set toFieldSet found for it without errors.
   */
  apply(
    pair: { live: JSONValue; config: JSONValue },
    input: UpdateInput & { force: boolean; configSet?: FieldSet },
  ): { object: JSONValue | null; managers: ManagedFieldSets } {
    const checked =
      input.configSet === undefined
        ? toFieldSet(this.#resolver, this.#root, pair.config)
        : { set: input.configSet, errors: [] };
    if (checked.errors.length > 0) throw new InvalidConfiguration(formatTypedErrors(checked.errors));
    const merged = orEmpty(mergeValues(this.#resolver, this.#root, { lhs: pair.live, rhs: pair.config }));
    const managers: ManagedFieldSets = new Map(input.managers);
    const lastSet = managers.get(input.manager);
    const set = input.ignored === undefined ? checked.set : checked.set.recursiveDifference(input.ignored);
    managers.set(input.manager, { set, apiVersion: input.version, applied: true });
    const pruned = this.#prune(merged, { managers, lastSet: lastSet?.set, set });
    // Alone, the applier has nobody to conflict with or take fields from: no compare needed.
    const cmp = hasOthers(managers, input.manager)
      ? this.#compare({ live: pair.live, next: pruned, goTyped: false }, input.ignored)
      : noChanges;
    const after = this.#takeChanged(cmp, { ...input, managers });
    return { object: jsonEqual(pair.live, pruned) ? null : pruned, managers: after };
  }

  /**
   * Removes what the manager applied last time but not now, unless another applier owns it. When it
   * applies everything it applied last time (the common re-apply), nothing can go: every item the
   * removal would take is owned by an applier (this one), and so is every named field above it.
   */
  #prune(
    merged: JSONValue,
    input: { managers: ManagedFieldSets; lastSet: FieldSet | undefined; set: FieldSet },
  ): JSONValue {
    const { lastSet } = input;
    if (lastSet === undefined || lastSet.isSubsetOf(input.set)) return merged;
    const namedLast = this.#named(lastSet);
    // The pruned objects share what was not removed with the merged one, and its sets.
    const sets = new NamedFieldSets(this.#resolver, this.#root);
    let pruned = this.#remove(merged, namedLast);
    // addBackOwnedItems: whatever an applier (this one included) still owns comes back.
    let owned: FieldSet | undefined;
    for (const vs of input.managers.values())
      if (vs.applied) owned = owned === undefined ? vs.set : owned.union(vs.set);
    const mergedSet = sets.of(merged);
    if (owned !== undefined) {
      const keep = sets.of(pruned).union(this.#named(owned));
      pruned = this.#remove(merged, mergedSet.difference(keep));
    }
    // addBackDanglingItems: only fields the manager owned before may go.
    const prunedSet = pruned === merged ? mergedSet : sets.of(pruned);
    return this.#remove(merged, mergedSet.difference(prunedSet).intersection(namedLast));
  }
}
