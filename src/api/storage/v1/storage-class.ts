// storage.k8s.io/v1 StorageClass(+List) (k8s.io/api/storage/v1/types.go), with core/v1's
// TopologySelectorTerm that allowedTopologies uses.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, coreV1, groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, bool, ref, str, stringMap, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export const storageV1 = { group: 'storage.k8s.io', version: 'v1' } as const;
export const storageV1Def = apiDefinitions('storage', 'v1');

export const reclaimPolicies = ['Delete', 'Retain'] as const;
export const volumeBindingModes = ['Immediate', 'WaitForFirstConsumer'] as const;

/** The annotations that mark the default StorageClass (storageutil.IsDefaultAnnotation). */
export const isDefaultStorageClassAnnotation = 'storageclass.kubernetes.io/is-default-class';
export const betaIsDefaultStorageClassAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';

export interface TopologySelectorTerm {
  matchLabelExpressions?: { key: string; values: string[] }[];
}

export interface StorageClass extends KubeObject {
  apiVersion?: 'storage.k8s.io/v1';
  kind?: 'StorageClass';
  metadata?: ObjectMeta;
  provisioner: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: string;
  mountOptions?: string[];
  allowVolumeExpansion?: boolean;
  volumeBindingMode?: string;
  allowedTopologies?: TopologySelectorTerm[];
}

export interface StorageClassList extends KubeObject {
  metadata?: ListMeta;
  items: StorageClass[];
}

const STORAGE_CLASS = storageV1Def('StorageClass');
const STORAGE_CLASS_LIST = storageV1Def('StorageClassList');
const TOPOLOGY_TERM = coreV1('TopologySelectorTerm');
const TOPOLOGY_REQUIREMENT = coreV1('TopologySelectorLabelRequirement');

export const storageClassKind = groupKind(storageV1, 'StorageClass', STORAGE_CLASS);
export const storageClassListKind = groupKind(storageV1, 'StorageClassList', STORAGE_CLASS_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const storageClassModule: APIModule = {
  definitions: {
    [TOPOLOGY_REQUIREMENT]: struct(
      'A topology label and the values it may have.',
      {
        key: str('The label key.', { default: '' }),
        values: atomicList(str(undefined, { default: '' }), 'The values the label may have.'),
      },
      { required: ['key', 'values'] },
    ),
    [TOPOLOGY_TERM]: struct(
      'Topology requirements, all of which must hold.',
      {
        matchLabelExpressions: atomicList(
          ref(TOPOLOGY_REQUIREMENT, undefined, { default: {} }),
          'Requirements on topology labels.',
        ),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [STORAGE_CLASS]: struct(
      'A class of storage that volumes are dynamically provisioned from.',
      {
        allowVolumeExpansion: bool('Whether volumes of this class may be expanded.'),
        allowedTopologies: atomicList(
          ref(TOPOLOGY_TERM, undefined, { default: {} }),
          'Where volumes of this class may be provisioned.',
        ),
        apiVersion,
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        mountOptions: atomicList(
          str(undefined, { default: '' }),
          'Mount options of the provisioned volumes.',
        ),
        parameters: stringMap('Parameters for the provisioner.'),
        provisioner: str('The volume plugin that provisions volumes of this class.', { default: '' }),
        reclaimPolicy: str('What happens to released volumes: Delete (the default) or Retain.', {
          enum: [...reclaimPolicies],
          default: 'Delete',
        }),
        volumeBindingMode: str(
          'When volumes are bound and provisioned: Immediate (the default) or WaitForFirstConsumer.',
          {
            enum: [...volumeBindingModes],
            default: 'Immediate',
          },
        ),
      },
      { required: ['provisioner'] },
    ),
    [STORAGE_CLASS_LIST]: struct(
      'A list of StorageClasses.',
      {
        apiVersion,
        items: arrayOf(ref(STORAGE_CLASS, undefined, { default: {} }), 'The StorageClasses.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [storageClassKind, storageClassListKind],
  goTypes: {
    [STORAGE_CLASS]: {
      reclaimPolicy: 'v1.PersistentVolumeReclaimPolicy',
      volumeBindingMode: 'v1.VolumeBindingMode',
    },
  },
  // k8s.io/api/storage/v1 and core/v1 generated.proto.
  protobuf: {
    [STORAGE_CLASS]: {
      metadata: 1,
      provisioner: 2,
      parameters: 3,
      reclaimPolicy: pointer(4),
      mountOptions: 5,
      allowVolumeExpansion: pointer(6),
      volumeBindingMode: pointer(7),
      allowedTopologies: 8,
    },
    [STORAGE_CLASS_LIST]: { metadata: 1, items: 2 },
    [TOPOLOGY_TERM]: { matchLabelExpressions: 1 },
    [TOPOLOGY_REQUIREMENT]: { key: 1, values: 2 },
  },
};

/** storageutil.IsDefaultAnnotation: the class is marked the default (either annotation). */
export function isDefaultStorageClass(sc: StorageClass): boolean {
  const annotations = sc.metadata?.annotations ?? {};
  return (
    annotations[isDefaultStorageClassAnnotation] === 'true' ||
    annotations[betaIsDefaultStorageClassAnnotation] === 'true'
  );
}
