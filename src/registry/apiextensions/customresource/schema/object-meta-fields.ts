// Unknown fields inside an object's metadata, as kube finds them when it decodes metadata strictly into
// metav1.ObjectMeta (apiextensions-apiserver pkg/apiserver/schema/objectmeta/coerce.go) and drops them
// by writing the decoded ObjectMeta back.
import { objectMetaOrder } from '../../../../machinery/json/kube-member-order.js';
import { compareGoStrings } from '../../../../machinery/validation/index.js';
import { isJSONObject, type JSONObject } from './json-value.js';
import { dropMalformedObjectMetaFields } from './malformed-meta-fields.js';

// The JSON names of metav1.ObjectMeta, OwnerReference and ManagedFieldsEntry.
const objectMetaFields: ReadonlySet<string> = new Set(objectMetaOrder);
const ownerReferenceFields = new Set([
  'apiVersion',
  'kind',
  'name',
  'uid',
  'controller',
  'blockOwnerDeletion',
]);
const managedFieldsEntryFields = new Set([
  'manager',
  'operation',
  'apiVersion',
  'time',
  'fieldsType',
  'fieldsV1',
  'subresource',
]);

interface At {
  readonly path: string;
  readonly found: string[];
}

function pruneStruct(obj: JSONObject, known: ReadonlySet<string>, { path, found }: At): void {
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    found.push(`${path}.${key}`);
    Reflect.deleteProperty(obj, key);
  }
}

function pruneListOfStructs(list: unknown, known: ReadonlySet<string>, { path, found }: At): void {
  if (!Array.isArray(list)) return;
  list.forEach((item, i) => {
    if (isJSONObject(item)) pruneStruct(item, known, { path: `${path}[${String(i)}]`, found });
  });
}

/**
 * Removes the fields of `holder.metadata` that ObjectMeta does not know and returns their paths
 * (`<prefix>metadata.foo`, sorted), after dropping the fields that do not decode. A metadata that is
 * not an object is left for validation to refuse.
 */
export function pruneObjectMetaUnknownFields(holder: JSONObject, prefix: string): string[] {
  const meta = holder['metadata'];
  if (!isJSONObject(meta)) return [];
  dropMalformedObjectMetaFields(meta);
  const found: string[] = [];
  const base = `${prefix}metadata`;
  pruneStruct(meta, objectMetaFields, { path: base, found });
  pruneListOfStructs(meta['ownerReferences'], ownerReferenceFields, {
    path: `${base}.ownerReferences`,
    found,
  });
  pruneListOfStructs(meta['managedFields'], managedFieldsEntryFields, {
    path: `${base}.managedFields`,
    found,
  });
  return found.sort(compareGoStrings);
}
