// core/v1 ResourceQuota(+List): the most of each resource a namespace may use. Its status (hard and
// used) is written by a quota controller through resourcequotas/status.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, atomicList, mapOf, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { QUANTITY } from '../../util/int-or-string.js';
import type { ResourceList } from './limit-range.js';

export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface ScopeSelector {
  matchExpressions?: ScopedResourceSelectorRequirement[];
}

export interface ResourceQuotaSpec {
  hard?: ResourceList;
  scopes?: string[];
  scopeSelector?: ScopeSelector;
}

export interface ResourceQuotaStatus {
  hard?: ResourceList;
  used?: ResourceList;
}

export interface ResourceQuota extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ResourceQuota';
  metadata?: ObjectMeta;
  spec?: ResourceQuotaSpec;
  status?: ResourceQuotaStatus;
}

export interface ResourceQuotaList extends KubeObject {
  metadata?: ListMeta;
  items: ResourceQuota[];
}

export const resourceQuotaKind = coreV1Kind('ResourceQuota');
export const resourceQuotaListKind = coreV1Kind('ResourceQuotaList');

const QUOTA = coreV1('ResourceQuota');
const QUOTA_SPEC = coreV1('ResourceQuotaSpec');
const QUOTA_STATUS = coreV1('ResourceQuotaStatus');
const SCOPE_SELECTOR = coreV1('ScopeSelector');
const SCOPED_REQUIREMENT = coreV1('ScopedResourceSelectorRequirement');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const resources = (description: string): ReturnType<typeof mapOf> => mapOf(ref(QUANTITY), description);

export const resourceQuotaModule: APIModule = {
  definitions: {
    [QUOTA]: struct('Aggregate resource limits of a namespace.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(QUOTA_SPEC, 'The desired hard limits.', { default: {} }),
      status: ref(QUOTA_STATUS, 'The enforced hard limits and the observed use.', { default: {} }),
    }),
    [QUOTA_SPEC]: struct('The hard limits of a quota and which objects it tracks.', {
      hard: resources('The hard limit per named resource.'),
      scopeSelector: ref(SCOPE_SELECTOR, 'Scopes the tracked objects must match, as expressions.'),
      scopes: atomicList({ type: 'string' }, 'Scopes the tracked objects must match, all of them.'),
    }),
    [SCOPE_SELECTOR]: struct('Scope requirements, ANDed.', {
      matchExpressions: atomicList(ref(SCOPED_REQUIREMENT), 'The requirements.'),
    }),
    [SCOPED_REQUIREMENT]: struct(
      'A scope name, an operator and values.',
      {
        operator: str('In, NotIn, Exists or DoesNotExist.'),
        scopeName: str('The scope the requirement applies to.'),
        values: atomicList({ type: 'string' }, 'The values; empty for Exists and DoesNotExist.'),
      },
      { required: ['scopeName', 'operator'] },
    ),
    [QUOTA_STATUS]: struct('The enforced hard limits and the current use.', {
      hard: resources('The enforced hard limit per named resource.'),
      used: resources('The current use per named resource.'),
    }),
    [coreV1('ResourceQuotaList')]: struct(
      'A list of ResourceQuotas.',
      {
        apiVersion,
        items: arrayOf(ref(QUOTA, undefined, { default: {} }), 'The ResourceQuotas.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [resourceQuotaKind, resourceQuotaListKind],
  goTypes: {
    [QUOTA_SPEC]: { scopes: '[]v1.ResourceQuotaScope' },
    [SCOPED_REQUIREMENT]: { scopeName: 'v1.ResourceQuotaScope', operator: 'v1.ScopeSelectorOperator' },
  },
  protobuf: {
    [QUOTA]: { metadata: 1, spec: 2, status: 3 },
    [QUOTA_SPEC]: { hard: 1, scopes: 2, scopeSelector: pointer(3) },
    [SCOPE_SELECTOR]: { matchExpressions: 1 },
    [SCOPED_REQUIREMENT]: { scopeName: 1, operator: 2, values: 3 },
    [QUOTA_STATUS]: { hard: 1, used: 2 },
    [coreV1('ResourceQuotaList')]: { metadata: 1, items: 2 },
  },
};
