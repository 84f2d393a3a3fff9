// Selection predicates (k8s.io/apiserver/pkg/storage/selection_predicate.go) and the default attribute
// functions (DefaultNamespaceScopedAttr / DefaultClusterScopedAttr, generic.ObjectMetaFieldsSet).
import type { KubeObject, ObjectMeta } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import {
  parseSelector as parseFieldSelector,
  Selector as FieldSelector,
  type TransformFunc,
} from '../../machinery/fields/index.js';
import {
  parseSelector as parseLabelSelector,
  Selector as LabelSelector,
} from '../../machinery/labels/index.js';
import type { SelectionPredicate } from '../../storage/interfaces.js';
import type { AttrFunc, ObjectAttrs } from '../rest/strategy.js';

/**
 * `metadata.name`, and `metadata.namespace` for namespaced kinds: the fields every object has. Each
 * set is one literal: a member added to a literal after it was made goes to a separate array, one
 * object more for every element the watch cache holds.
 */
export function objectMetaFieldsSet(
  meta: ObjectMeta | undefined,
  hasNamespaceField: boolean,
): Record<string, string> {
  const name = meta?.name ?? '';
  return hasNamespaceField
    ? { 'metadata.name': name, 'metadata.namespace': meta?.namespace ?? '' }
    : { 'metadata.name': name };
}

/** generic.MergeFieldsSets: later sets win. */
export function mergeFieldsSets(...sets: Readonly<Record<string, string>>[]): Record<string, string> {
  return Object.assign({}, ...sets) as Record<string, string>;
}

export const defaultNamespaceScopedAttr: AttrFunc = (obj) => ({
  labels: obj.metadata?.labels ?? {},
  fields: objectMetaFieldsSet(obj.metadata, true),
});

export const defaultClusterScopedAttr: AttrFunc = (obj) => ({
  labels: obj.metadata?.labels ?? {},
  fields: objectMetaFieldsSet(obj.metadata, false),
});

/** runtime.DefaultMetaV1FieldSelectorConversion: kinds without their own field labels know two. */
export const defaultFieldLabelConversion: TransformFunc = (field, value) => {
  if (field === 'metadata.name' || field === 'metadata.namespace') return { ok: true, field, value };
  return {
    ok: false,
    message: `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
  };
};

/** A SelectionPredicate with what the Store needs beyond matching: single-key shortcuts. */
export interface StorePredicate<T extends KubeObject = KubeObject> extends SelectionPredicate<T> {
  readonly label: LabelSelector;
  readonly field: FieldSelector;
  /** The name a `metadata.name=` field selector pins, unless a continue token is in play. */
  matchesSingle(): string | undefined;
  /** The namespace a `metadata.namespace=` field selector pins, unless a continue token is in play. */
  matchesSingleNamespace(): string | undefined;
}

export interface PredicateInit<T extends KubeObject> {
  readonly label: LabelSelector;
  readonly field: FieldSelector;
  readonly attrFunc: AttrFunc<T>;
  /** A continue token disables the single-object shortcuts (the key range is fixed by the token). */
  readonly continueToken?: string;
}

export function selectionPredicate<T extends KubeObject>(init: PredicateInit<T>): StorePredicate<T> {
  const { label, field, attrFunc } = init;
  const continuing = (init.continueToken ?? '') !== '';
  const empty = (): boolean => label.empty() && field.empty();
  return {
    label,
    field,
    empty,
    matches(obj: T): boolean {
      if (empty()) return true;
      const attrs: ObjectAttrs = attrFunc(obj);
      return label.matches(attrs.labels) && field.matches(attrs.fields);
    },
    matchesAttrs(attrs: ObjectAttrs): boolean {
      return empty() || (label.matches(attrs.labels) && field.matches(attrs.fields));
    },
    exactFields(): ReadonlyMap<string, string> {
      const exact = new Map<string, string>();
      for (const t of field.requirements) if (t.operator === '=') exact.set(t.field, t.value);
      return exact;
    },
    matchesSingle: () => (continuing ? undefined : field.requiresExactMatch('metadata.name')),
    matchesSingleNamespace: () => (continuing ? undefined : field.requiresExactMatch('metadata.namespace')),
  };
}

/** Parses a label selector as the list and watch endpoints receive it; failures are BadRequests. */
export function parseLabels(selector: string | undefined): LabelSelector {
  if (selector === undefined || selector === '') return LabelSelector.everything();
  const res = parseLabelSelector(selector);
  if (!res.ok) throw newBadRequest(res.message);
  return res.selector;
}

/** Parses a field selector and converts its field labels for the kind; failures are BadRequests. */
export function parseFields(selector: string | undefined, conversion: TransformFunc): FieldSelector {
  if (selector === undefined || selector === '') return FieldSelector.everything();
  const res = parseFieldSelector(selector, conversion);
  if (!res.ok) throw newBadRequest(res.message);
  return res.selector;
}
