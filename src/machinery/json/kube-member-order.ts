// The member order kube-apiserver writes an object in, as far as it is the same for every kind:
// TypeMeta (kind, apiVersion) first, then ObjectMeta in its Go field order, then the kind's own
// members. Go's encoder follows struct field order; our objects keep the order their writer used
// (a client's body, a patch, the registry adding uid and creationTimestamp last), so objects are
// put in this order before they are stored, and every read serves the stored bytes.

import { setMember } from './set-member.js';

/** metav1.ObjectMeta's fields in Go order (k8s.io/apimachinery/pkg/apis/meta/v1/types.go). */
export const objectMetaOrder = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

/** The ObjectMeta fields that come before resourceVersion. */
export const objectMetaBeforeResourceVersion: ReadonlySet<string> = new Set(
  objectMetaOrder.slice(0, objectMetaOrder.indexOf('resourceVersion')),
);

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function inOrder(obj: JSONObject, order: readonly string[]): JSONObject {
  const out: JSONObject = {};
  for (const key of order) if (Object.hasOwn(obj, key)) setMember(out, key, obj[key]);
  for (const key of Object.keys(obj)) if (!Object.hasOwn(out, key)) setMember(out, key, obj[key]);
  return out;
}

/** A shallow copy of an object in kube's order (the input stays as it is); anything else as it is. */
export function inKubeMemberOrder<T>(obj: T): T {
  if (!isObject(obj)) return obj;
  const { kind, apiVersion, metadata } = obj;
  const head: JSONObject = {};
  if (kind !== undefined) head['kind'] = kind;
  if (apiVersion !== undefined) head['apiVersion'] = apiVersion;
  if (metadata !== undefined)
    head['metadata'] = isObject(metadata) ? inOrder(metadata, objectMetaOrder) : metadata;
  return { ...head, ...obj, ...head };
}
