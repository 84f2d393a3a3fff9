// lastAppliedManager: the first server-side apply by kubectl after client-side applies. Conflicts
// with fields the last-applied annotation set, to the values the object still holds, are the
// applier's own earlier configuration, so the apply takes them over instead of failing.
import type { KubeObject } from '../../api/meta.js';
import type { FieldSet } from '../../machinery/patch/fieldpath/set.js';
import { isJSONObject, type JSONValue } from '../../machinery/patch/json.js';
import type { Conflict } from '../../machinery/patch/merge/updater.js';
import { compareValues } from '../../machinery/patch/typed/compare.js';
import { toFieldSet } from '../../machinery/patch/typed/to-field-set.js';
import type { SchemaResolver, TypeRef } from '../../machinery/patch/typed/type-node.js';
import { lastAppliedAnnotation } from './last-applied.js';

/** Only kubectl's own server-side apply takes over what its client-side applies set. */
export const lastAppliedUpgradeManager = 'kubectl';

export interface TypedKind {
  readonly resolver: SchemaResolver;
  readonly root: TypeRef;
  readonly apiVersion: string;
}

/**
 * The fields the live object's last-applied annotation sets that still hold the values it gave
 * them; undefined when there is no usable annotation (absent, not JSON, another version, or not
 * of the kind's shape), as kube then keeps every conflict.
 */
export function allowedConflictsFromLastApplied(live: KubeObject, kind: TypedKind): FieldSet | undefined {
  const text = live.metadata?.annotations?.[lastAppliedAnnotation];
  if (text === undefined || text === '') return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJSONObject(lastApplied) || lastApplied['apiVersion'] !== kind.apiVersion) return undefined;
  const typed = toFieldSet(kind.resolver, kind.root, lastApplied);
  if (typed.errors.length > 0) return undefined;
  let cmp;
  try {
    cmp = compareValues(kind.resolver, kind.root, { lhs: lastApplied, rhs: live as JSONValue });
  } catch {
    return undefined;
  }
  return typed.set.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** The conflicts the allowed set does not cover. */
export function conflictsOutside(conflicts: readonly Conflict[], allowed: FieldSet): Conflict[] {
  return conflicts.filter((c) => !allowed.has(c.path));
}
