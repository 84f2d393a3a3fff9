// A minimal selection predicate for the suite: label and field equality (and inequality) on the
// attributes kube's pod strategy exposes. The registry's real selectors live elsewhere.
import type { SelectionPredicate } from '../interfaces.js';
import type { TestObject } from './test-object.js';

export const testFields = ['metadata.name', 'spec.nodeName'] as const;
export type TestField = (typeof testFields)[number];

export interface TestSelector {
  /** Every label must be present with this value. */
  labels?: Readonly<Record<string, string>>;
  /** Every field must equal this value (a missing spec.nodeName is ""). */
  fields?: Readonly<Partial<Record<TestField, string>>>;
  /** Every field must differ from this value. */
  notFields?: Readonly<Partial<Record<TestField, string>>>;
}

const fieldGetters: Record<TestField, (obj: TestObject) => string> = {
  'metadata.name': (obj) => obj.metadata.name ?? '',
  'spec.nodeName': (obj) => obj.spec?.nodeName ?? '',
};

type FieldRequirement = readonly [TestField, string];

function requirements(set: Readonly<Partial<Record<TestField, string>>> | undefined): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  for (const field of testFields) {
    const value = set?.[field];
    if (value !== undefined) out.push([field, value]);
  }
  return out;
}

export function testPredicate(selector: TestSelector = {}): SelectionPredicate<TestObject> {
  const labels = Object.entries(selector.labels ?? {});
  const equal = requirements(selector.fields);
  const notEqual = requirements(selector.notFields);
  const isEmpty = labels.length === 0 && equal.length === 0 && notEqual.length === 0;
  return {
    empty: () => isEmpty,
    matches: (obj) =>
      labels.every(([k, v]) => obj.metadata.labels?.[k] === v) &&
      equal.every(([field, v]) => fieldGetters[field](obj) === v) &&
      notEqual.every(([field, v]) => fieldGetters[field](obj) !== v),
    exactFields: () => new Map(equal),
  };
}

/** The predicate that selects everything (kube's storage.Everything). */
export const everything: SelectionPredicate<TestObject> = testPredicate();
