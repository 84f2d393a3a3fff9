// core/v1 LimitRange(+List): per-namespace bounds and defaults for the resources of pods,
// containers and persistent volume claims.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, atomicList, mapOf, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';

/** v1.ResourceList: resource name → quantity. */
export type ResourceList = Record<string, Quantity>;

export const limitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'] as const;

export interface LimitRangeItem {
  type: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRangeSpec {
  limits: LimitRangeItem[];
}

export interface LimitRange extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'LimitRange';
  metadata?: ObjectMeta;
  spec?: LimitRangeSpec;
}

export interface LimitRangeList extends KubeObject {
  metadata?: ListMeta;
  items: LimitRange[];
}

export const limitRangeKind = coreV1Kind('LimitRange');
export const limitRangeListKind = coreV1Kind('LimitRangeList');

const LIMIT_RANGE = coreV1('LimitRange');
const LIMIT_RANGE_SPEC = coreV1('LimitRangeSpec');
const LIMIT_RANGE_ITEM = coreV1('LimitRangeItem');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const resources = (description: string): ReturnType<typeof mapOf> => mapOf(ref(QUANTITY), description);

export const limitRangeModule: APIModule = {
  definitions: {
    [LIMIT_RANGE]: struct('Resource bounds and defaults of the objects of a namespace.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(LIMIT_RANGE_SPEC, 'The limits enforced.', { default: {} }),
    }),
    [LIMIT_RANGE_SPEC]: struct(
      'The limits of a LimitRange.',
      {
        limits: atomicList(
          ref(LIMIT_RANGE_ITEM, undefined, { default: {} }),
          'The limits, one per kind of object.',
        ),
      },
      { required: ['limits'] },
    ),
    [LIMIT_RANGE_ITEM]: struct(
      'The bounds and defaults for one kind of object.',
      {
        default: resources('Default limits of a container that sets none.'),
        defaultRequest: resources('Default requests of a container that sets none.'),
        max: resources('The most of each resource an object may take.'),
        maxLimitRequestRatio: resources('The largest allowed ratio of limit to request per resource.'),
        min: resources('The least of each resource an object must take.'),
        type: str('Pod, Container or PersistentVolumeClaim.'),
      },
      { required: ['type'] },
    ),
    [coreV1('LimitRangeList')]: struct(
      'A list of LimitRanges.',
      {
        apiVersion,
        items: arrayOf(ref(LIMIT_RANGE, undefined, { default: {} }), 'The LimitRanges.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [limitRangeKind, limitRangeListKind],
  goTypes: { [LIMIT_RANGE_ITEM]: { type: 'v1.LimitType' } },
  protobuf: {
    [LIMIT_RANGE]: { metadata: 1, spec: 2 },
    [LIMIT_RANGE_SPEC]: { limits: 1 },
    [LIMIT_RANGE_ITEM]: { type: 1, max: 2, min: 3, default: 4, defaultRequest: 5, maxLimitRequestRatio: 6 },
    [coreV1('LimitRangeList')]: { metadata: 1, items: 2 },
  },
};
