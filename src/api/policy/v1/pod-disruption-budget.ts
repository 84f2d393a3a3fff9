// policy/v1 PodDisruptionBudget(+List) (k8s.io/api/policy/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind, metaV1 } from '../../schema/api-module.js';
import { arrayOf, int32, int64, mapList, mapOf, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { INT_OR_STRING, type IntOrString } from '../../util/int-or-string.js';

export const policyV1 = { group: 'policy', version: 'v1' } as const;
export const policyV1Def = apiDefinitions('policy', 'v1');

export const unhealthyPodEvictionPolicies = ['IfHealthyBudget', 'AlwaysAllow'] as const;

/** metav1.Condition (registered by the core module that defines it first). */
export interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  selector?: LabelSelector;
  maxUnavailable?: IntOrString;
  unhealthyPodEvictionPolicy?: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

export interface PodDisruptionBudget extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'PodDisruptionBudget';
  metadata?: ObjectMeta;
  spec?: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
}

export interface PodDisruptionBudgetList extends KubeObject {
  metadata?: ListMeta;
  items: PodDisruptionBudget[];
}

const PDB = policyV1Def('PodDisruptionBudget');
const PDB_LIST = policyV1Def('PodDisruptionBudgetList');
const PDB_SPEC = policyV1Def('PodDisruptionBudgetSpec');
const PDB_STATUS = policyV1Def('PodDisruptionBudgetStatus');
const CONDITION = metaV1('Condition');

export const podDisruptionBudgetKind = groupKind(policyV1, 'PodDisruptionBudget', PDB);
export const podDisruptionBudgetListKind = groupKind(policyV1, 'PodDisruptionBudgetList', PDB_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const counter = (description: string): ReturnType<typeof int32> => int32(description, { default: 0 });

export const podDisruptionBudgetModule: APIModule = {
  definitions: {
    [PDB_SPEC]: struct('How many pods of a set may be disrupted at once.', {
      maxUnavailable: ref(
        INT_OR_STRING,
        'At most this many (or this percentage of) pods may be unavailable.',
      ),
      minAvailable: ref(
        INT_OR_STRING,
        'At least this many (or this percentage of) pods must stay available.',
      ),
      selector: ref(LABEL_SELECTOR, 'The pods the budget covers.'),
      unhealthyPodEvictionPolicy: str('When running but not ready pods may be evicted.', {
        enum: [...unhealthyPodEvictionPolicies],
      }),
    }),
    [PDB_STATUS]: struct(
      'What the disruption controller last observed.',
      {
        conditions: mapList(ref(CONDITION, undefined, { default: {} }), 'type', 'The latest observations.'),
        currentHealthy: counter('How many healthy pods there are.'),
        desiredHealthy: counter('How many healthy pods the budget requires.'),
        disruptedPods: mapOf(ref(TIME), 'Pods being evicted, with when the eviction was admitted.'),
        disruptionsAllowed: counter('How many pod disruptions are allowed now.'),
        expectedPods: counter('How many pods the budget counts.'),
        observedGeneration: int64('The generation this status was computed for.'),
      },
      { required: ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] },
    ),
    [PDB]: struct('Bounds the disruption a set of pods may suffer at once.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(PDB_SPEC, 'The desired bounds.', { default: {} }),
      status: ref(PDB_STATUS, 'The most recently observed state.', { default: {} }),
    }),
    [PDB_LIST]: struct(
      'A list of PodDisruptionBudgets.',
      {
        apiVersion,
        items: arrayOf(ref(PDB, undefined, { default: {} }), 'The PodDisruptionBudgets.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [podDisruptionBudgetKind, podDisruptionBudgetListKind],
  goTypes: { [PDB_SPEC]: { unhealthyPodEvictionPolicy: 'v1.UnhealthyPodEvictionPolicyType' } },
  // k8s.io/api/policy/v1 generated.proto.
  protobuf: {
    [PDB]: { metadata: 1, spec: 2, status: 3 },
    [PDB_LIST]: { metadata: 1, items: 2 },
    [PDB_SPEC]: {
      minAvailable: pointer(1),
      selector: pointer(2),
      maxUnavailable: pointer(3),
      unhealthyPodEvictionPolicy: pointer(4),
    },
    [PDB_STATUS]: {
      observedGeneration: 1,
      disruptedPods: 2,
      disruptionsAllowed: 3,
      currentHealthy: 4,
      desiredHealthy: 5,
      expectedPods: 6,
      conditions: 7,
    },
  },
};
