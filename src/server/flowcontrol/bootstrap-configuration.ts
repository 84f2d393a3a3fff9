// The configuration kube-apiserver 1.33 starts with (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap):
// the mandatory exempt and catch-all objects, which the server keeps as they are, and the suggested
// ones, which it creates and keeps up to date unless an operator took them over.
import type {
  FlowSchema,
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  ResourcePolicyRule,
  Subject,
} from '../../api/flowcontrol/v1/flow-schema.js';
import type {
  PriorityLevelConfiguration,
  PriorityLevelConfigurationSpec,
} from '../../api/flowcontrol/v1/priority-level-configuration.js';

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));

/** A resource rule; [verbs, apiGroups, resources, namespaces], cluster-scoped when asked. */
const resourceRule = (
  [verbs, apiGroups, resources, namespaces]: [string[], string[], string[], string[]],
  clusterScope = false,
): ResourcePolicyRule => ({
  verbs,
  apiGroups,
  resources,
  namespaces,
  ...(clusterScope ? { clusterScope } : {}),
});

const nonResourceRule = (verbs: string[], nonResourceURLs: string[]): NonResourcePolicyRule => ({
  verbs,
  nonResourceURLs,
});

/** Every verb on every resource and non-resource URL. */
const everything = (subjects: Subject[]): PolicyRulesWithSubjects => ({
  subjects,
  resourceRules: [resourceRule([['*'], ['*'], ['*'], ['*']], true)],
  nonResourceRules: [nonResourceRule(['*'], ['*'])],
});

interface SchemaHead {
  readonly level: string;
  readonly precedence: number;
  readonly distinguisher?: 'ByUser' | 'ByNamespace';
}

function flowSchema(name: string, head: SchemaHead, rules: PolicyRulesWithSubjects): FlowSchema {
  const { level, precedence: matchingPrecedence, distinguisher } = head;
  return {
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence,
      ...(distinguisher === undefined ? {} : { distinguisherMethod: { type: distinguisher } }),
      rules: [rules],
    },
  };
}

const level = (name: string, spec: PriorityLevelConfigurationSpec): PriorityLevelConfiguration => ({
  metadata: { name },
  spec,
});

/** A queuing level: [nominal shares, lendable percent, queues, hand size]. */
function queued([shares, lendablePercent, queues, handSize]: [
  number,
  number,
  number,
  number,
]): PriorityLevelConfigurationSpec {
  return {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares,
      lendablePercent,
      limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
    },
  };
}

export const mandatoryPriorityLevels: readonly PriorityLevelConfiguration[] = [
  level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
  level('catch-all', {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
  }),
];

export const mandatoryFlowSchemas: readonly FlowSchema[] = [
  flowSchema('exempt', { level: 'exempt', precedence: 1 }, everything(groups('system:masters'))),
  flowSchema(
    'catch-all',
    { level: 'catch-all', precedence: 10_000, distinguisher: 'ByUser' },
    everything(groups('system:unauthenticated', 'system:authenticated')),
  ),
];

export const suggestedPriorityLevels: readonly PriorityLevelConfiguration[] = [
  level('system', queued([30, 33, 64, 6])),
  level('node-high', queued([40, 25, 64, 6])),
  level('leader-election', queued([10, 0, 16, 4])),
  level('workload-high', queued([40, 50, 128, 6])),
  level('workload-low', queued([100, 90, 128, 6])),
  level('global-default', queued([20, 50, 128, 6])),
];

const leaderElectionRules = (configNamespaces: string[]): ResourcePolicyRule[] => [
  resourceRule([['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], configNamespaces]),
  resourceRule([['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], ['*']]),
];

export const suggestedFlowSchemas: readonly FlowSchema[] = [
  flowSchema(
    'system-nodes',
    { level: 'system', precedence: 500, distinguisher: 'ByUser' },
    everything(groups('system:nodes')),
  ),
  flowSchema(
    'system-node-high',
    { level: 'node-high', precedence: 400, distinguisher: 'ByUser' },
    {
      subjects: groups('system:nodes'),
      resourceRules: [
        resourceRule([['*'], [''], ['nodes', 'nodes/status'], ['*']], true),
        resourceRule([['*'], ['coordination.k8s.io'], ['leases'], ['*']]),
      ],
    },
  ),
  flowSchema(
    'probes',
    { level: 'exempt', precedence: 2 },
    {
      subjects: groups('system:unauthenticated', 'system:authenticated'),
      nonResourceRules: [nonResourceRule(['get'], ['/healthz', '/readyz', '/livez'])],
    },
  ),
  flowSchema(
    'system-leader-election',
    { level: 'leader-election', precedence: 100, distinguisher: 'ByUser' },
    {
      subjects: [
        ...users('system:kube-controller-manager', 'system:kube-scheduler'),
        ...kubeSystemServiceAccounts('*'),
      ],
      resourceRules: leaderElectionRules(['kube-system']),
    },
  ),
  flowSchema(
    'workload-leader-election',
    { level: 'leader-election', precedence: 200, distinguisher: 'ByUser' },
    {
      subjects: kubeSystemServiceAccounts('*'),
      resourceRules: leaderElectionRules(['*']),
    },
  ),
  flowSchema(
    'endpoint-controller',
    { level: 'workload-high', precedence: 150, distinguisher: 'ByUser' },
    {
      subjects: [
        ...users('system:kube-controller-manager'),
        ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller'),
      ],
      resourceRules: [resourceRule([['get', 'create', 'update'], [''], ['endpoints'], ['*']])],
    },
  ),
  flowSchema(
    'kube-controller-manager',
    { level: 'workload-high', precedence: 800, distinguisher: 'ByNamespace' },
    everything(users('system:kube-controller-manager')),
  ),
  flowSchema(
    'kube-scheduler',
    { level: 'workload-high', precedence: 800, distinguisher: 'ByNamespace' },
    everything(users('system:kube-scheduler')),
  ),
  flowSchema(
    'kube-system-service-accounts',
    { level: 'workload-high', precedence: 900, distinguisher: 'ByNamespace' },
    everything(kubeSystemServiceAccounts('*')),
  ),
  flowSchema(
    'service-accounts',
    { level: 'workload-low', precedence: 9000, distinguisher: 'ByUser' },
    everything(groups('system:serviceaccounts')),
  ),
  flowSchema(
    'global-default',
    { level: 'global-default', precedence: 9900, distinguisher: 'ByUser' },
    everything(groups('system:unauthenticated', 'system:authenticated')),
  ),
];
