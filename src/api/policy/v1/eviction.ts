// policy/v1 Eviction (k8s.io/api/policy/v1/types.go): the body of POST pods/<name>/eviction.
import type { KubeObject, ObjectMeta } from '../../meta.js';
import { DELETE_OPTIONS, type DeleteOptionsBody } from '../../meta/v1/delete-options.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { policyV1, policyV1Def } from './pod-disruption-budget.js';

export interface Eviction extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'Eviction';
  /** Names the pod to evict (and its namespace). */
  metadata?: ObjectMeta;
  /** How the pod is deleted once the eviction is allowed. */
  deleteOptions?: DeleteOptionsBody;
}

const EVICTION = policyV1Def('Eviction');

export const evictionKind = groupKind(policyV1, 'Eviction', EVICTION);

export const evictionModule: APIModule = {
  definitions: {
    [EVICTION]: struct('Evicts a pod from its node, subject to the disruption budgets covering it.', {
      apiVersion: str('Versioned schema of this representation.'),
      deleteOptions: ref(DELETE_OPTIONS, 'The options of the pod deletion the eviction leads to.'),
      kind: str('REST resource this object represents.'),
      metadata: ref(OBJECT_META, 'The pod to evict: its name and namespace.', { default: {} }),
    }),
  },
  kinds: [evictionKind],
  // k8s.io/api/policy/v1 generated.proto.
  protobuf: { [EVICTION]: { metadata: 1, deleteOptions: pointer(2) } },
};
