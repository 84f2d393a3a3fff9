// Metadata fields of a custom resource that do not decode into metav1.ObjectMeta are dropped, as
// kube's Coerce does with DropMalformedFields on request bodies (apiextensions-apiserver
// pkg/apiserver/schema/objectmeta/coerce.go, GetObjectMetaWithOptions): a field decodes whole or
// goes whole.
import { memberOf, setMember } from '../../../../machinery/json/set-member.js';
import { isJSONObject } from './json-value.js';

type Check = (v: unknown) => boolean;

const isString: Check = (v) => typeof v === 'string';
const isInt: Check = (v) => typeof v === 'number' && Number.isInteger(v);
const isBool: Check = (v) => typeof v === 'boolean';
const isTime: Check = (v) => typeof v === 'string' && (v === '' || !Number.isNaN(Date.parse(v)));
const isStringMap: Check = (v) => isJSONObject(v) && Object.values(v).every((x) => x === null || isString(x));
const isStringList: Check = (v) => Array.isArray(v) && v.every((x) => x === null || isString(x));

function structOf(fields: Readonly<Record<string, Check>>): Check {
  return (v) =>
    isJSONObject(v) &&
    Object.entries(v).every(([k, x]) => x === null || (memberOf(fields, k)?.(x) ?? true));
}

const listOf =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every((x) => x === null || item(x));

const ownerReference = structOf({
  apiVersion: isString,
  kind: isString,
  name: isString,
  uid: isString,
  controller: isBool,
  blockOwnerDeletion: isBool,
});

const managedFieldsEntry = structOf({
  manager: isString,
  operation: isString,
  apiVersion: isString,
  time: isTime,
  fieldsType: isString,
  fieldsV1: isJSONObject,
  subresource: isString,
});

const objectMetaFields: Readonly<Record<string, Check>> = {
  name: isString,
  generateName: isString,
  namespace: isString,
  selfLink: isString,
  uid: isString,
  resourceVersion: isString,
  generation: isInt,
  creationTimestamp: isTime,
  deletionTimestamp: isTime,
  deletionGracePeriodSeconds: isInt,
  labels: isStringMap,
  annotations: isStringMap,
  ownerReferences: listOf(ownerReference),
  finalizers: isStringList,
  managedFields: listOf(managedFieldsEntry),
};

// Go decodes a null inside a list or map as the element's zero value: an empty string in
// finalizers, labels and annotations, an empty struct in ownerReferences and managedFields (which
// validation then refuses as kube's does, instead of meeting a null).
const zeroOfElements: Readonly<Record<string, () => unknown>> = {
  finalizers: () => '',
  labels: () => '',
  annotations: () => '',
  ownerReferences: () => ({}),
  managedFields: () => ({}),
};

function nullsAsZero(value: unknown, zero: () => unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null) value[i] = zero();
      // A struct's null member is its zero value too, which Go leaves out or writes as "".
      else if (isJSONObject(item))
        for (const [k, v] of Object.entries(item)) if (v === null) Reflect.deleteProperty(item, k);
    }
  } else if (isJSONObject(value)) {
    for (const [k, v] of Object.entries(value)) if (v === null) setMember(value, k, zero());
  }
}

/**
 * Removes the fields of `meta` that do not decode into their ObjectMeta type, and the null ones
 * (Go decodes null as the zero value, which ObjectMeta omits when written back); a null element of
 * a list or map becomes its zero value.
 */
export function dropMalformedObjectMetaFields(meta: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(meta)) {
    // Own members only: a key like `toString` or `__proto__` is an unknown field, left as it is.
    const check = memberOf(objectMetaFields, key);
    if (check === undefined) continue;
    if (value === null || !check(value)) {
      Reflect.deleteProperty(meta, key);
      continue;
    }
    const zero = memberOf(zeroOfElements, key);
    if (zero !== undefined) nullsAsZero(value, zero);
  }
}
