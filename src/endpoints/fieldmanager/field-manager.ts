// managedFields on every write (k8s.io/apimachinery/pkg/util/managedfields FieldManager): Update
// records what a create, update or patch changed for its manager; Apply merges an applied
// configuration, answering conflicts with 409 unless forced.
import type { KubeObject, ManagedFieldsEntry, ObjectMeta } from '../../api/meta.js';
import type { Schema } from '../../api/schema/types.js';
import { newBadRequest, StatusError } from '../../machinery/errors/index.js';
import { ShapeMemo } from '../../machinery/json/shapes.js';
import { decodeFieldsV1, isKnownCanonicalFieldsV1 } from '../../machinery/patch/fieldpath/fields-v1.js';
import { FieldSet } from '../../machinery/patch/fieldpath/set.js';
import { isJSONObject, type JSONObject, type JSONValue } from '../../machinery/patch/json.js';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  managerIdentifier,
  type Managed,
} from '../../machinery/patch/managed-fields.js';
import { Conflicts, InvalidConfiguration, Updater } from '../../machinery/patch/merge/updater.js';
import { toFieldSet } from '../../machinery/patch/typed/to-field-set.js';
import type { SchemaResolver } from '../../machinery/patch/typed/type-node.js';
import { newApplyConflict } from './conflict-error.js';
import { syncLastApplied } from './last-applied.js';
import {
  allowedConflictsFromLastApplied,
  conflictsOutside,
  lastAppliedUpgradeManager,
} from './last-applied-manager.js';
import { capUpdateManagers, keptIfSame, nowTime, stripMeta } from './managers.js';

export interface FieldManagerOptions {
  readonly resolver: SchemaResolver;
  readonly root: Schema;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly subresource: string;
  /**
   * The Go zero object of the kind (goZeroObject), which kube's create compares the new object
   * with; `{apiVersion, kind}` when not given (a custom resource: unstructured in kube).
   */
  readonly zero?: Readonly<KubeObject>;
}

/**
 * The strategy's reset fields as kube's built-in strategies declare them: the main resource does
 * not own `status`, the status subresource does not own `spec`.
 */
function resetFields(opts: FieldManagerOptions): FieldSet | undefined {
  const props = opts.resolver.resolve(opts.root).properties ?? {};
  const reset = opts.subresource === '' ? 'status' : opts.subresource === 'status' ? 'spec' : undefined;
  if (reset === undefined || !Object.hasOwn(props, reset) || !Object.hasOwn(props, 'status'))
    return undefined;
  return FieldSet.of([{ kind: 'field', name: reset }]);
}

/** A Status without a reason, as kube answers errors that are not Status errors (500). */
export function unknownError(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    code: 500,
  });
}

/**
 * `obj` without metadata.managedFields: a copy of the top level and of metadata, sharing the rest,
 * as the field manager only ever writes those two levels of what it returns (kube deep-copies;
 * here the requests own their objects and the live one is only read).
 */
export function withoutManagedFields(obj: KubeObject): KubeObject {
  const copy = { ...obj };
  const meta: unknown = obj.metadata;
  if (isJSONObject(meta)) {
    const { managedFields: _dropped, ...rest } = meta;
    copy.metadata = rest;
  } else if (meta === null) {
    // What the deep copy this replaces did on `delete null.managedFields`: a null metadata fails.
    throw new TypeError('Cannot convert undefined or null to object');
  } else if (Array.isArray(meta)) {
    // Not an object, but writable like one: keep the caller's array out of encodeInto's reach.
    copy.metadata = [...(meta as unknown[])] as ObjectMeta;
  }
  return copy;
}

function decodeOrEmpty(obj: KubeObject | null): Managed {
  try {
    return decodeManagedFields(obj?.metadata?.managedFields);
  } catch {
    return emptyManaged();
  }
}

/**
 * `obj` with `managed` as its metadata.managedFields, at the place `like` (the metadata it came
 * from) had them: Go writes struct fields in one order, so an apply or update that changes
 * nothing must give the very bytes stored, and the store then skips the write (no new
 * resourceVersion).
 */
function encodeInto(obj: KubeObject, managed: Managed, like?: unknown): KubeObject {
  const entries = encodeManagedFields(managed);
  obj.metadata ??= {};
  if (entries === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries;
  if (entries !== undefined && isJSONObject(like) && 'managedFields' in like && isJSONObject(obj.metadata)) {
    const meta: Record<string, unknown> = obj.metadata;
    const ordered: Record<string, unknown> = {};
    for (const key of [...Object.keys(like), ...Object.keys(meta)]) {
      if (key in meta && !(key in ordered)) ordered[key] = meta[key];
    }
    obj.metadata = ordered;
  }
  return obj;
}

export class FieldManager {
  readonly #opts: FieldManagerOptions;
  readonly #updater: Updater;
  readonly #apiVersion: string;
  readonly #ignored: FieldSet | undefined;
  readonly #zero: Readonly<KubeObject>;
  /** The FieldsV1 object a create of each shape recorded. */
  readonly #createFields = new ShapeMemo<JSONObject>();
  /** The field set of each shape of configuration applied. */
  readonly #appliedSets = new ShapeMemo<FieldSet>();

  constructor(opts: FieldManagerOptions) {
    this.#opts = opts;
    this.#updater = new Updater(opts.resolver, opts.root);
    this.#apiVersion = opts.group === '' ? opts.version : `${opts.group}/${opts.version}`;
    this.#ignored = resetFields(opts);
    this.#zero = opts.zero ?? Object.freeze({ apiVersion: this.#apiVersion, kind: opts.kind });
  }

  #ignoredInput(): { ignored?: FieldSet } {
    return this.#ignored === undefined ? {} : { ignored: this.#ignored };
  }

  /** Records `manager`'s changes from `live` to `next` in next's managedFields. */
  update(live: KubeObject, next: KubeObject, manager: string): KubeObject {
    const managed = this.#managedForUpdate(live, next);
    const object = withoutManagedFields(next);
    // skipNonAppliedManager: an existing object nobody tracks stays untracked until an apply.
    if (managed.fields.size === 0 && (live.metadata?.uid ?? '') !== '') return object;
    return encodeInto(
      object,
      this.#recordUpdate({ live: withoutManagedFields(live), next: object }, { managed, manager }),
      next.metadata,
    );
  }

  /**
   * decodeLiveOrNew: the managedFields the request sets, unless it sets none or invalid ones (then
   * the live object's); `[]` or `[{}]` reset them; a subresource never sets them.
   */
  #managedForUpdate(live: KubeObject, next: KubeObject): Managed {
    if (this.#opts.subresource !== '') return decodeOrEmpty(live);
    const requested = next.metadata?.managedFields;
    if (isResetManagedFields(requested)) return emptyManaged();
    let managed: Managed;
    try {
      managed = decodeManagedFields(requested);
    } catch {
      managed = emptyManaged();
    }
    return managed.fields.size === 0 ? decodeOrEmpty(live) : managed;
  }

  /** The Update layers below the skip: the changed fields for `manager`, timed, capped, stripped. */
  #recordUpdate(
    pair: { live: KubeObject; next: KubeObject },
    input: { managed: Managed; manager: string },
  ): Managed {
    const { managed, manager } = input;
    const current = 'current-operation';
    const fields = this.#updater.update(
      { live: pair.live as JSONValue, next: pair.next as JSONValue },
      { version: this.#apiVersion, managers: managed.fields, manager: current, ...this.#ignoredInput() },
    );
    const result: Managed = { fields, times: new Map(managed.times) };
    stripMeta(result, current);
    const id = managerIdentifier({
      manager: manager === '' ? 'unknown' : manager,
      operation: 'Update',
      apiVersion: this.#apiVersion,
      subresource: this.#opts.subresource,
    });
    const changed = result.fields.get(current);
    if (changed !== undefined) {
      result.fields.delete(current);
      const previous = result.fields.get(id);
      const set = previous === undefined ? changed.set : changed.set.union(previous.set);
      result.fields.set(id, { ...changed, set: keptIfSame(set, managed.fields.get(id)?.set) });
      result.times.set(id, nowTime());
    }
    capUpdateManagers(result);
    return result;
  }

  /**
   * updateNoErrors for a write that creates `next` (a create, a PUT that creates): kube's create
   * handler and its store compare it with a new object of the kind, the Go zero object. What a
   * create of the object's shape recorded is given again (machinery/json/shapes.ts; `bodyBytes` is
   * the request body's length, which bounds what is keyed).
   */
  createNoErrors(next: KubeObject, manager: string, bodyBytes = 0): KubeObject {
    const found = this.#opts.subresource === '' ? this.#createFields.lookup(next, bodyBytes) : undefined;
    if (found !== undefined && 'value' in found) return this.#createdWith(next, manager, found.value);
    const out = this.updateNoErrors(this.#zero, next, manager);
    const entries = out.metadata?.managedFields;
    const only = entries?.length === 1 ? entries[0]?.fieldsV1 : undefined;
    if (found !== undefined && isKnownCanonicalFieldsV1(only))
      this.#createFields.remember(found.key, only as JSONObject);
    return out;
  }

  /**
   * What createNoErrors makes of `next` when a create of its shape recorded `fieldsV1`: the one
   * entry of `manager`, now, holding that very FieldsV1 object (machinery/json/shapes.ts).
   */
  #createdWith(next: KubeObject, manager: string, fieldsV1: JSONObject): KubeObject {
    const id = managerIdentifier({
      manager: manager === '' ? 'unknown' : manager,
      operation: 'Update',
      apiVersion: this.#apiVersion,
      subresource: this.#opts.subresource,
    });
    const managed: Managed = {
      fields: new Map([
        [id, { set: decodeFieldsV1(fieldsV1), apiVersion: this.#apiVersion, applied: false }],
      ]),
      times: new Map([[id, nowTime()]]),
    };
    return encodeInto(withoutManagedFields(next), managed, next.metadata);
  }

  /** update, but a failure leaves the object without managedFields instead of failing the write. */
  updateNoErrors(live: KubeObject, next: KubeObject, manager: string): KubeObject {
    try {
      return this.update(live, next, manager);
    } catch {
      return withoutManagedFields(next);
    }
  }

  #check(applied: KubeObject): void {
    if (applied.apiVersion !== this.#apiVersion) {
      throw newBadRequest(
        `Incorrect version specified in apply patch. Specified patch version: ${applied.apiVersion ?? ''}, expected: ${this.#apiVersion}`,
      );
    }
    if (applied.metadata?.managedFields !== undefined)
      throw newBadRequest('metadata.managedFields must be nil');
  }

  /** objectGVKNN: `ns/name; /v1, Kind=ConfigMap`. */
  #describe(obj: KubeObject): string {
    const [group, version] = (obj.apiVersion ?? '').includes('/')
      ? (obj.apiVersion ?? '').split('/')
      : ['', obj.apiVersion ?? ''];
    return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}; ${group ?? ''}/${version ?? ''}, Kind=${obj.kind ?? ''}`;
  }

  /**
   * Applies `applied` for `manager` onto `live`; throws 409 on conflicts unless `force`. The
   * configuration's field set is remembered by its shape (machinery/json/shapes.ts; `bodyBytes` as
   * for creates).
   */
  apply(
    live: KubeObject,
    applied: KubeObject,
    opts: { manager: string; force: boolean; bodyBytes?: number },
  ): KubeObject {
    this.#check(applied);
    let managed: Managed;
    try {
      managed = decodeManagedFields(live.metadata?.managedFields);
    } catch (err) {
      throw unknownError(
        `failed to decode managed fields: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const liveValue = withoutManagedFields(live);
    const appliedSet = this.#appliedSet(applied, opts.bodyBytes ?? 0);
    let out;
    try {
      out = this.#applyTracked({ live: liveValue, applied, appliedSet }, { managed, ...opts });
    } catch (err) {
      if (!(err instanceof Conflicts)) throw err;
      // lastAppliedManager: kubectl taking over what its client-side applies set.
      const allowed =
        opts.manager === lastAppliedUpgradeManager
          ? allowedConflictsFromLastApplied(liveValue, {
              resolver: this.#opts.resolver,
              root: this.#opts.root,
              apiVersion: this.#apiVersion,
            })
          : undefined;
      if (allowed === undefined) throw newApplyConflict(err.conflicts);
      const remaining = conflictsOutside(err.conflicts, allowed);
      if (remaining.length > 0) throw newApplyConflict(remaining);
      out = this.#applyTracked({ live: liveValue, applied, appliedSet }, { managed, ...opts, force: true });
    }
    const { object, result } = out;
    if (opts.manager === 'kubectl') syncLastApplied({ object, applied });
    return encodeInto(object, result, live.metadata);
  }

  /**
   * The field set `applied` sets, remembered by its shape; undefined when it does not fit the
   * schema (the merge then finds the same errors and says them) or was not keyed.
   */
  #appliedSet(applied: KubeObject, bodyBytes: number): FieldSet | undefined {
    const found = this.#appliedSets.lookup(applied, bodyBytes);
    if (found === undefined || 'value' in found) return found?.value;
    const checked = toFieldSet(this.#opts.resolver, this.#opts.root, applied as JSONValue);
    if (checked.errors.length > 0) return undefined;
    this.#appliedSets.remember(found.key, checked.set);
    return checked.set;
  }

  /**
   * skipNonAppliedManager's apply: an object nobody tracks gets its existing fields recorded for
   * `before-first-apply` first, so the apply sees them owned; then the merge proper.
   */
  #applyTracked(
    pair: { live: KubeObject; applied: KubeObject; appliedSet: FieldSet | undefined },
    opts: { managed: Managed; manager: string; force: boolean },
  ): { object: KubeObject; result: Managed } {
    let managed = opts.managed;
    // kube diffs the live object against a new one of its kind; an apply that creates the object
    // starts from that new object (the store's, with its zero-valued members such as a
    // PriorityClass's `value: 0`), so nothing is recorded: it has no uid yet.
    if (managed.fields.size === 0 && (pair.live.metadata?.uid ?? '') !== '') {
      const empty: KubeObject = { apiVersion: this.#apiVersion, kind: this.#opts.kind };
      managed = this.#recordUpdate({ live: empty, next: pair.live }, { managed, manager: beforeFirstApply });
    }
    const id = managerIdentifier({
      manager: opts.manager,
      operation: 'Apply',
      subresource: this.#opts.subresource,
    });
    let out;
    try {
      out = this.#updater.apply(
        { live: pair.live as JSONValue, config: pair.applied as JSONValue },
        {
          version: this.#apiVersion,
          managers: managed.fields,
          manager: id,
          force: opts.force,
          ...this.#ignoredInput(),
          ...(pair.appliedSet === undefined ? {} : { configSet: pair.appliedSet }),
        },
      );
    } catch (err) {
      // kube answers 500; the configuration does not fit the schema, so 400 with its field path.
      if (err instanceof InvalidConfiguration)
        throw newBadRequest(
          `failed to create typed patch object (${this.#describe(pair.applied)}): ${err.message}`,
        );
      throw err;
    }
    const result: Managed = { fields: out.managers, times: new Map(managed.times) };
    stripMeta(result, id, managed.fields.get(id)?.set);
    let object = pair.live;
    if (out.object !== null) {
      object = out.object as KubeObject;
      result.times.set(id, nowTime());
    }
    capUpdateManagers(result);
    return { object, result };
  }
}

/** The Update manager that owns what an object held before its first apply. */
export const beforeFirstApply = 'before-first-apply';

/** isResetManagedFields: a present but empty list, or a list of one empty entry. */
function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): boolean {
  if (entries === undefined) return false;
  if (entries.length === 0) return true;
  const [only] = entries;
  return entries.length === 1 && only !== undefined && Object.keys(only).length === 0;
}
