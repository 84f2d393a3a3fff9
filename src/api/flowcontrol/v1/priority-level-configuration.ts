// flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration(+List)
// (k8s.io/api/flowcontrol/v1/types.go): a priority level's share of the server's concurrency and
// what happens to requests beyond it.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, int32, mapList, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import {
  conditionDefinition,
  conditionProtobuf,
  flowcontrolV1,
  flowcontrolV1Def,
  type FlowcontrolCondition,
} from './flow-schema.js';

export const priorityLevelEnablements = ['Exempt', 'Limited'] as const;
export const limitResponseTypes = ['Queue', 'Reject'] as const;

/** SetDefaults_* of k8s.io/kubernetes/pkg/apis/flowcontrol/v1/defaults.go. */
export const priorityLevelDefaults = {
  limitedNominalConcurrencyShares: 30,
  exemptNominalConcurrencyShares: 0,
  lendablePercent: 0,
  queues: 64,
  handSize: 8,
  queueLengthLimit: 50,
} as const;

export interface QueuingConfiguration {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}

export interface LimitedPriorityLevelConfiguration {
  nominalConcurrencyShares?: number;
  limitResponse?: { type?: string; queuing?: QueuingConfiguration };
  lendablePercent?: number;
  borrowingLimitPercent?: number;
}

export interface PriorityLevelConfigurationSpec {
  type?: string;
  limited?: LimitedPriorityLevelConfiguration;
  exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number };
}

export interface PriorityLevelConfiguration extends KubeObject {
  apiVersion?: 'flowcontrol.apiserver.k8s.io/v1';
  kind?: 'PriorityLevelConfiguration';
  metadata?: ObjectMeta;
  spec: PriorityLevelConfigurationSpec;
  status?: { conditions?: FlowcontrolCondition[] };
}

export interface PriorityLevelConfigurationList extends KubeObject {
  metadata?: ListMeta;
  items: PriorityLevelConfiguration[];
}

const PLC = flowcontrolV1Def('PriorityLevelConfiguration');
const PLC_LIST = flowcontrolV1Def('PriorityLevelConfigurationList');
const PLC_SPEC = flowcontrolV1Def('PriorityLevelConfigurationSpec');
const PLC_STATUS = flowcontrolV1Def('PriorityLevelConfigurationStatus');
const PLC_CONDITION = flowcontrolV1Def('PriorityLevelConfigurationCondition');
const LIMITED = flowcontrolV1Def('LimitedPriorityLevelConfiguration');
const EXEMPT = flowcontrolV1Def('ExemptPriorityLevelConfiguration');
const LIMIT_RESPONSE = flowcontrolV1Def('LimitResponse');
const QUEUING = flowcontrolV1Def('QueuingConfiguration');

export const priorityLevelConfigurationKind = groupKind(flowcontrolV1, 'PriorityLevelConfiguration', PLC);
export const priorityLevelConfigurationListKind = groupKind(
  flowcontrolV1,
  'PriorityLevelConfigurationList',
  PLC_LIST,
);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const priorityLevelConfigurationModule: APIModule = {
  definitions: {
    [QUEUING]: struct('How requests wait at a priority level.', {
      handSize: int32('How many queues a flow is dealt (default 8).', { default: 0 }),
      queueLengthLimit: int32('The most requests one queue holds (default 50).', { default: 0 }),
      queues: int32('The number of queues (default 64).', { default: 0 }),
    }),
    [LIMIT_RESPONSE]: struct(
      'What happens to requests that cannot be executed at once.',
      {
        queuing: ref(QUEUING, 'The queuing parameters, for type Queue.'),
        type: str('Queue or Reject.', { default: '' }),
      },
      { required: ['type'] },
    ),
    [LIMITED]: struct('How a Limited priority level limits requests.', {
      borrowingLimitPercent: int32('How much of its nominal limit the level may borrow, in percent.'),
      lendablePercent: int32('How much of its nominal limit others may borrow, in percent.'),
      limitResponse: ref(LIMIT_RESPONSE, 'What to do with requests beyond the limit.', { default: {} }),
      nominalConcurrencyShares: int32("The level's share of the server's concurrency (default 30)."),
    }),
    [EXEMPT]: struct('The configurable parts of an exempt priority level.', {
      lendablePercent: int32('How much of its nominal limit others may borrow, in percent.'),
      nominalConcurrencyShares: int32('The seats nominally reserved for the level (default 0).'),
    }),
    [PLC_SPEC]: struct(
      'The configuration of a priority level.',
      {
        exempt: ref(EXEMPT, 'Settings of an Exempt level.'),
        limited: ref(LIMITED, 'Settings of a Limited level.'),
        type: str('Exempt or Limited.', { default: '' }),
      },
      { required: ['type'] },
    ),
    [PLC_CONDITION]: conditionDefinition('PriorityLevelConfiguration'),
    [PLC_STATUS]: struct('The current state of a priority level.', {
      conditions: mapList(ref(PLC_CONDITION, undefined, { default: {} }), 'type', 'The conditions.'),
    }),
    [PLC]: struct('The configuration of a priority level.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(PLC_SPEC, 'The desired behavior of the priority level.', { default: {} }),
      status: ref(PLC_STATUS, 'The current status of the priority level.', { default: {} }),
    }),
    [PLC_LIST]: struct(
      'A list of PriorityLevelConfigurations.',
      {
        apiVersion,
        items: arrayOf(ref(PLC, undefined, { default: {} }), 'The PriorityLevelConfigurations.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [priorityLevelConfigurationKind, priorityLevelConfigurationListKind],
  goTypes: {
    [PLC_SPEC]: { type: 'v1.PriorityLevelEnablement' },
    [LIMIT_RESPONSE]: { type: 'v1.LimitResponseType' },
  },
  // k8s.io/api/flowcontrol/v1 generated.proto.
  protobuf: {
    [PLC]: { metadata: 1, spec: 2, status: 3 },
    [PLC_LIST]: { metadata: 1, items: 2 },
    [PLC_SPEC]: { type: 1, limited: pointer(2), exempt: pointer(3) },
    [LIMITED]: {
      nominalConcurrencyShares: pointer(1),
      limitResponse: 2,
      lendablePercent: pointer(3),
      borrowingLimitPercent: pointer(4),
    },
    [EXEMPT]: { nominalConcurrencyShares: pointer(1), lendablePercent: pointer(2) },
    [LIMIT_RESPONSE]: { type: 1, queuing: pointer(2) },
    [QUEUING]: { queues: 1, handSize: 2, queueLengthLimit: 3 },
    [PLC_STATUS]: { conditions: 1 },
    [PLC_CONDITION]: conditionProtobuf,
  },
};
