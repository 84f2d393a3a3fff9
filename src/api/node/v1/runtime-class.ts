// node.k8s.io/v1 RuntimeClass(+List) (k8s.io/api/node/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, coreV1, groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, mapOf, ref, str, stringMap, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { QUANTITY } from '../../util/int-or-string.js';

export const nodeV1 = { group: 'node.k8s.io', version: 'v1' } as const;
export const nodeV1Def = apiDefinitions('node', 'v1');

export interface RuntimeClass extends KubeObject {
  apiVersion?: 'node.k8s.io/v1';
  kind?: 'RuntimeClass';
  metadata?: ObjectMeta;
  handler: string;
  overhead?: { podFixed?: Record<string, string> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Record<string, unknown>[] };
}

export interface RuntimeClassList extends KubeObject {
  metadata?: ListMeta;
  items: RuntimeClass[];
}

const RUNTIME_CLASS = nodeV1Def('RuntimeClass');
const RUNTIME_CLASS_LIST = nodeV1Def('RuntimeClassList');
const OVERHEAD = nodeV1Def('Overhead');
const SCHEDULING = nodeV1Def('Scheduling');

export const runtimeClassKind = groupKind(nodeV1, 'RuntimeClass', RUNTIME_CLASS);
export const runtimeClassListKind = groupKind(nodeV1, 'RuntimeClassList', RUNTIME_CLASS_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const runtimeClassModule: APIModule = {
  definitions: {
    [OVERHEAD]: struct('Resources a pod of the class uses beyond its containers.', {
      podFixed: mapOf(ref(QUANTITY), 'The fixed overhead per pod.'),
    }),
    [SCHEDULING]: struct('Where pods of the class may run.', {
      nodeSelector: { ...stringMap('Labels the nodes must have.'), 'x-kubernetes-map-type': 'atomic' },
      tolerations: atomicList(
        ref(coreV1('Toleration'), undefined, { default: {} }),
        'Tolerations added to pods.',
      ),
    }),
    [RUNTIME_CLASS]: struct(
      'A container runtime configuration pods may ask for.',
      {
        apiVersion,
        handler: str('The CRI handler that runs pods of the class.', { default: '' }),
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        overhead: ref(OVERHEAD, 'The resource overhead of pods of the class.'),
        scheduling: ref(SCHEDULING, 'Where pods of the class may run.'),
      },
      { required: ['handler'] },
    ),
    [RUNTIME_CLASS_LIST]: struct(
      'A list of RuntimeClasses.',
      {
        apiVersion,
        items: arrayOf(ref(RUNTIME_CLASS, undefined, { default: {} }), 'The RuntimeClasses.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [runtimeClassKind, runtimeClassListKind],
  // k8s.io/api/node/v1 generated.proto.
  protobuf: {
    [RUNTIME_CLASS]: { metadata: 1, handler: 2, overhead: pointer(3), scheduling: pointer(4) },
    [RUNTIME_CLASS_LIST]: { metadata: 1, items: 2 },
    [OVERHEAD]: { podFixed: 1 },
    [SCHEDULING]: { nodeSelector: 1, tolerations: 2 },
  },
};
