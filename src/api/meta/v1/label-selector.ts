// meta/v1 LabelSelector, LabelSelectorRequirement and FieldSelectorRequirement.
import type { APIModule } from '../../schema/api-module.js';
import { metaV1 } from '../../schema/api-module.js';
import { atomicList, ref, str, stringMap, struct } from '../../schema/builders.js';

export const LABEL_SELECTOR = metaV1('LabelSelector');
export const LABEL_SELECTOR_REQUIREMENT = metaV1('LabelSelectorRequirement');
export const FIELD_SELECTOR_REQUIREMENT = metaV1('FieldSelectorRequirement');

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** A requirement on a field (In, NotIn, Exists, DoesNotExist), as authorization requests carry. */
export type FieldSelectorRequirement = LabelSelectorRequirement;

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export const labelSelectorModule: APIModule = {
  definitions: {
    [LABEL_SELECTOR]: struct(
      'Selects objects by label; the requirements are ANDed, and an empty selector selects everything.',
      {
        matchExpressions: atomicList(ref(LABEL_SELECTOR_REQUIREMENT), 'Requirements on label values.'),
        matchLabels: stringMap('Labels that must be present with exactly these values.'),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [LABEL_SELECTOR_REQUIREMENT]: struct(
      'A key, an operator and values relating them.',
      {
        key: str('The label key the requirement is about.'),
        operator: str('In, NotIn, Exists or DoesNotExist.'),
        values: atomicList({ type: 'string' }, 'Values for In and NotIn; empty for Exists and DoesNotExist.'),
      },
      { required: ['key', 'operator'] },
    ),
    [FIELD_SELECTOR_REQUIREMENT]: struct(
      'A field key, an operator and values relating them.',
      {
        key: str('The field selector key the requirement is about.'),
        operator: str('In, NotIn, Exists or DoesNotExist.'),
        values: atomicList({ type: 'string' }, 'Values for In and NotIn; empty for Exists and DoesNotExist.'),
      },
      { required: ['key', 'operator'] },
    ),
  },
  goTypes: {
    [LABEL_SELECTOR_REQUIREMENT]: { operator: 'v1.LabelSelectorOperator' },
    [FIELD_SELECTOR_REQUIREMENT]: { operator: 'v1.FieldSelectorOperator' },
  },
  protobuf: {
    [LABEL_SELECTOR]: { matchLabels: 1, matchExpressions: 2 },
    [LABEL_SELECTOR_REQUIREMENT]: { key: 1, operator: 2, values: 3 },
    [FIELD_SELECTOR_REQUIREMENT]: { key: 1, operator: 2, values: 3 },
  },
};
