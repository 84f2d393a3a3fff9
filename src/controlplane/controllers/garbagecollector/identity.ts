// What the garbage collector knows an object by (kube's objectReference in garbagecollector/graph.go):
// an owner reference's coordinates plus the namespace, which owner references leave out.
import type { OwnerReference } from '../../../api/meta.js';

export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
}

/** objectReference.String(), as kube's logs and the OwnerRefInvalidNamespace message print it. */
export function identityString(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

export function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return (
    a.uid === b.uid &&
    a.name === b.name &&
    a.namespace === b.namespace &&
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind
  );
}

/** ownerReferenceMatchesCoordinates: the reference names this identity (namespace aside). */
export function referenceMatches(ref: OwnerReference, id: ObjectIdentity): boolean {
  return (
    ref.uid === id.uid && ref.name === id.name && ref.apiVersion === id.apiVersion && ref.kind === id.kind
  );
}

/** The identity an owner reference gives its owner, in the dependent's namespace. */
export function ownerIdentity(ref: OwnerReference, namespace: string): ObjectIdentity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
}

/** The absent owner cache's key: the coordinates, and the namespace when it matters. */
export function referenceKey(id: ObjectIdentity): string {
  return JSON.stringify([id.apiVersion, id.kind, id.name, id.uid, id.namespace]);
}

export const blocksOwnerDeletion = (ref: OwnerReference): boolean => ref.blockOwnerDeletion === true;
