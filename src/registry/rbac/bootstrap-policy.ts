// The default RBAC policy kube-apiserver creates when RBAC authorizes
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go): the user-facing cluster roles
// (cluster-admin, admin, edit, view, the latter three aggregated from system:aggregate-to-*), the
// discovery, basic-user and public-info-viewer roles, and their cluster role bindings. Each carries
// kube's bootstrapping label and autoupdate annotation.
import {
  rbacGroup,
  type ClusterRole,
  type ClusterRoleBinding,
  type PolicyRule,
} from '../../api/rbac/v1/rbac.js';

const read = ['get', 'list', 'watch'];
const write = ['create', 'update', 'patch', 'delete', 'deletecollection'];

const rule = (
  verbs: readonly string[],
  apiGroups: readonly string[],
  resources: readonly string[],
): PolicyRule => ({
  verbs: [...verbs],
  apiGroups: [...apiGroups],
  resources: [...resources],
});

const urls = (verbs: readonly string[], nonResourceURLs: readonly string[]): PolicyRule => ({
  verbs: [...verbs],
  nonResourceURLs: [...nonResourceURLs],
});

const bootstrapMeta = (name: string, labels: Record<string, string> = {}) => ({
  name,
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
});

const aggregateTo = (role: string): Record<string, string> => ({
  [`rbac.authorization.k8s.io/aggregate-to-${role}`]: 'true',
});

function clusterRole(
  name: string,
  spec: { rules?: PolicyRule[]; labels?: Record<string, string>; aggregateFrom?: string },
): ClusterRole {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: bootstrapMeta(name, spec.labels),
    ...(spec.aggregateFrom === undefined
      ? {}
      : { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo(spec.aggregateFrom) }] } }),
    rules: spec.rules ?? [],
  };
}

const viewRules: PolicyRule[] = [
  rule(
    read,
    [''],
    [
      'pods',
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'serviceaccounts',
      'services',
      'services/status',
      'endpoints',
      'persistentvolumeclaims',
      'persistentvolumeclaims/status',
      'configmaps',
    ],
  ),
  rule(
    read,
    [''],
    [
      'limitranges',
      'resourcequotas',
      'bindings',
      'events',
      'pods/status',
      'resourcequotas/status',
      'namespaces/status',
      'replicationcontrollers/status',
      'pods/log',
    ],
  ),
  rule(read, [''], ['namespaces']),
  rule(read, ['discovery.k8s.io'], ['endpointslices']),
  rule(
    read,
    ['apps'],
    [
      'controllerrevisions',
      'statefulsets',
      'statefulsets/status',
      'statefulsets/scale',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/status',
      'deployments/scale',
      'replicasets',
      'replicasets/status',
      'replicasets/scale',
    ],
  ),
  rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
  rule(read, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
  rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
  rule(read, ['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingresses/status']),
];

const editRules: PolicyRule[] = [
  rule(
    read,
    [''],
    ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy'],
  ),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(write, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
  rule(
    write,
    [''],
    [
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'serviceaccounts',
      'services',
      'services/proxy',
      'persistentvolumeclaims',
      'configmaps',
      'secrets',
      'events',
    ],
  ),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(
    write,
    ['apps'],
    [
      'statefulsets',
      'statefulsets/scale',
      'daemonsets',
      'deployments',
      'deployments/scale',
      'deployments/rollback',
      'replicasets',
      'replicasets/scale',
    ],
  ),
  rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
  rule(write, ['batch'], ['jobs', 'cronjobs']),
  rule(write, ['policy'], ['poddisruptionbudgets']),
  rule(write, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
  rule([...read, ...write], ['coordination.k8s.io'], ['leases']),
];

const adminRules: PolicyRule[] = [
  rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
  rule([...read, ...write], [rbacGroup], ['roles', 'rolebindings']),
];

export const bootstrapClusterRoles: readonly ClusterRole[] = [
  clusterRole('cluster-admin', { rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] }),
  clusterRole('system:discovery', {
    rules: [
      urls(
        ['get'],
        [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
      ),
    ],
  }),
  clusterRole('system:basic-user', {
    rules: [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ],
  }),
  clusterRole('system:public-info-viewer', {
    rules: [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])],
  }),
  // For servers that delegate authentication and authorization to this one.
  clusterRole('system:auth-delegator', {
    rules: [
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    ],
  }),
  clusterRole('admin', { aggregateFrom: 'admin' }),
  clusterRole('edit', { aggregateFrom: 'edit', labels: aggregateTo('admin') }),
  clusterRole('view', { aggregateFrom: 'view', labels: aggregateTo('edit') }),
  clusterRole('system:aggregate-to-admin', { rules: adminRules, labels: aggregateTo('admin') }),
  clusterRole('system:aggregate-to-edit', { rules: editRules, labels: aggregateTo('edit') }),
  clusterRole('system:aggregate-to-view', { rules: viewRules, labels: aggregateTo('view') }),
];

function clusterRoleBinding(name: string, groups: readonly string[]): ClusterRoleBinding {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: bootstrapMeta(name),
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name },
    subjects: groups.map((g) => ({ kind: 'Group', apiGroup: rbacGroup, name: g })),
  };
}

export const bootstrapClusterRoleBindings: readonly ClusterRoleBinding[] = [
  clusterRoleBinding('cluster-admin', ['system:masters']),
  clusterRoleBinding('system:discovery', ['system:authenticated']),
  clusterRoleBinding('system:basic-user', ['system:authenticated']),
  clusterRoleBinding('system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
];
