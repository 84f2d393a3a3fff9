// Generated from k8s.io/apimachinery pkg/apis/meta/v1 types.go and watch.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('APIGroup')]: { serverAddressByClientCIDRs: 'empty' },
  [def('APIGroupList')]: {},
  [def('APIResource')]: {
    group: 'zero',
    version: 'zero',
    shortNames: 'empty',
    categories: 'empty',
    storageVersionHash: 'zero',
  },
  [def('APIResourceList')]: {},
  [def('APIVersions')]: {},
  [def('Condition')]: { observedGeneration: 'zero' },
  [def('DeleteOptions')]: {
    gracePeriodSeconds: 'nil',
    preconditions: 'nil',
    orphanDependents: 'nil',
    propagationPolicy: 'nil',
    dryRun: 'empty',
    ignoreStoreReadErrorWithClusterBreakingPotential: 'nil',
  },
  [def('FieldSelectorRequirement')]: { values: 'empty' },
  [def('FieldsV1')]: {},
  [def('GroupVersionForDiscovery')]: {},
  [def('LabelSelector')]: { matchLabels: 'empty', matchExpressions: 'empty' },
  [def('LabelSelectorRequirement')]: { values: 'empty' },
  [def('ListMeta')]: {
    selfLink: 'zero',
    resourceVersion: 'zero',
    continue: 'zero',
    remainingItemCount: 'nil',
  },
  [def('ManagedFieldsEntry')]: {
    manager: 'zero',
    operation: 'zero',
    apiVersion: 'zero',
    time: 'nil',
    fieldsType: 'zero',
    fieldsV1: 'nil',
    subresource: 'zero',
  },
  [def('ObjectMeta')]: {
    name: 'zero',
    generateName: 'zero',
    namespace: 'zero',
    selfLink: 'zero',
    uid: 'zero',
    resourceVersion: 'zero',
    generation: 'zero',
    deletionTimestamp: 'nil',
    deletionGracePeriodSeconds: 'nil',
    labels: 'empty',
    annotations: 'empty',
    ownerReferences: 'empty',
    finalizers: 'empty',
    managedFields: 'empty',
  },
  [def('OwnerReference')]: { controller: 'nil', blockOwnerDeletion: 'nil' },
  [def('PartialObjectMetadata')]: {},
  [def('PartialObjectMetadataList')]: {},
  [def('Patch')]: {},
  [def('Preconditions')]: { uid: 'nil', resourceVersion: 'nil' },
  [def('ServerAddressByClientCIDR')]: {},
  [def('Status')]: { status: 'zero', message: 'zero', reason: 'zero', details: 'nil', code: 'zero' },
  [def('StatusCause')]: { reason: 'zero', message: 'zero', field: 'zero' },
  [def('StatusDetails')]: {
    name: 'zero',
    group: 'zero',
    kind: 'zero',
    uid: 'zero',
    causes: 'empty',
    retryAfterSeconds: 'zero',
  },
  [def('Table')]: {},
  [def('TableColumnDefinition')]: {},
  [def('TableRow')]: { conditions: 'empty' },
  [def('TableRowCondition')]: { reason: 'zero', message: 'zero' },
  [def('WatchEvent')]: {},
};

export const metaV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
