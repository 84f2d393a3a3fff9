// Who owns the replicas of an object written through its scale subresource (managedfields'
// ScaleHandler). The parent's entries that own its replicas field are shown to the Scale's field
// manager as owning the Scale's `.spec.replicas`; the Scale's entries after the write decide who
// owns the parent's replicas field: a manager the write took the field from loses it there (and its
// entry goes when nothing else is left in it), and a manager new to the field gets an entry of its
// own at the parent's version. The Scale's entries carry autoscaling/v1 in their identifiers and
// the parent's carry the parent's version, so an Update manager of the Scale never matches a parent
// entry: its parent entry is written without a time, as kube writes it.
import type { ManagedFieldsEntry } from '../../api/meta.js';
import { fieldElement, type Path } from './fieldpath/path-element.js';
import { FieldSet } from './fieldpath/set.js';
import { decodeManagedFields, emptyManaged, encodeManagedFields } from './managed-fields.js';

/**
 * A parent's replicas field by the apiVersion its managedFields entries are written in; null for a
 * version without a scale subresource (a custom resource's). An entry of a version not listed is
 * dropped when the Scale's ownership is written back.
 */
export type ReplicasPaths = ReadonlyMap<string, Path | null>;

const scaleAPIVersion = 'autoscaling/v1';
const replicasInScale: Path = [fieldElement('spec'), fieldElement('replicas')];

/** The `.a.b` replicas path of a custom resource's scale subresource as a field path. */
export function replicasPathOf(dotted: string): Path {
  return dotted
    .replace(/^\./, '')
    .split('.')
    .map((name) => fieldElement(name));
}

/** ToSubresource: the parent's owners of its replicas, as owners of the Scale's `.spec.replicas`. */
export function scaleManagedFields(
  parentEntries: readonly ManagedFieldsEntry[] | undefined,
  paths: ReplicasPaths,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const out = emptyManaged();
  for (const [id, vs] of parent.fields) {
    const path = paths.get(vs.apiVersion);
    if (path === undefined || path === null || !vs.set.has(path)) continue;
    out.fields.set(id, {
      set: FieldSet.of(replicasInScale),
      apiVersion: scaleAPIVersion,
      applied: vs.applied,
    });
    out.times.set(id, parent.times.get(id));
  }
  return encodeManagedFields(out);
}

/**
 * ToParent: the parent's entries with the ownership of its replicas field as the Scale's entries
 * (after the write) say; `apiVersion` is the parent version the request was made in.
 */
export function parentManagedFields(
  parentEntries: readonly ManagedFieldsEntry[] | undefined,
  scaleEntries: readonly ManagedFieldsEntry[] | undefined,
  target: { readonly apiVersion: string; readonly paths: ReplicasPaths },
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale = decodeManagedFields(scaleEntries).fields;
  const out = emptyManaged();
  for (const [id, vs] of parent.fields) {
    const path = target.paths.get(vs.apiVersion);
    if (path === undefined) continue;
    if (path !== null && vs.set.has(path)) {
      if (scale.has(id)) {
        // The manager still owns the field: its entry stays, and is not added again below.
        scale.delete(id);
      } else {
        // The write took the field from this manager.
        const rest = vs.set.difference(FieldSet.of(path));
        if (rest.empty()) continue;
        out.fields.set(id, { ...vs, set: rest });
        out.times.set(id, parent.times.get(id));
        continue;
      }
    }
    out.fields.set(id, vs);
    out.times.set(id, parent.times.get(id));
  }
  const replicas = target.paths.get(target.apiVersion);
  for (const [id, vs] of scale) {
    if (!vs.set.has(replicasInScale)) continue;
    const set = replicas === undefined || replicas === null ? new FieldSet() : FieldSet.of(replicas);
    out.fields.set(id, { set, apiVersion: target.apiVersion, applied: vs.applied });
    out.times.set(id, parent.times.get(id));
  }
  return encodeManagedFields(out);
}
