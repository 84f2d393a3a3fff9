// Field selectors on custom resources (CustomResourceFieldSelectors, GA in 1.32): metadata.name,
// metadata.namespace and the CRD version's selectableFields (`.spec.color` selects as `spec.color`),
// whose values are read from each object as kube's customResourceStrategy.GetAttrs reads them.
import type { KubeObject } from '../../../api/meta.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import { defaultFieldLabelConversion, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { AttrFunc } from '../../rest/strategy.js';

/** `.spec.color` → `spec.color`, the label a field selector names. */
const labelOf = (jsonPath: string): string => jsonPath.replace(/^\./, '');

function valueAt(obj: KubeObject, label: string): string | undefined {
  let at: unknown = obj;
  for (const field of label.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[field];
  }
  if (typeof at === 'string') return at;
  if (typeof at === 'boolean' || (typeof at === 'number' && Number.isInteger(at))) return String(at);
  return undefined;
}

export function selectableFieldsConversion(fields: readonly { jsonPath: string }[]): TransformFunc {
  const labels = new Set(fields.map((f) => labelOf(f.jsonPath)));
  return (field, value) =>
    labels.has(field) ? { ok: true, field, value } : defaultFieldLabelConversion(field, value);
}

export function selectableFieldsAttrs(
  fields: readonly { jsonPath: string }[],
  namespaced: boolean,
): AttrFunc {
  const labels = fields.map((f) => labelOf(f.jsonPath));
  return (obj) => {
    const set: Record<string, string> = { ...objectMetaFieldsSet(obj.metadata, namespaced) };
    for (const label of labels) {
      const value = valueAt(obj, label);
      if (value !== undefined) set[label] = value;
    }
    return { labels: obj.metadata?.labels ?? {}, fields: set };
  };
}
