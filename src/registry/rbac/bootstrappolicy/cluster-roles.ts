// kube 1.33's bootstrap ClusterRoles (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go
// ClusterRoles), in its order, with the rules its feature gates add at their 1.33 defaults:
// KubeletFineGrainedAuthz and MultiCIDRServiceAllocator on; DynamicResourceAllocation,
// ClusterTrustBundle, KubeletServiceAccountTokenForCredentialProviders, ComponentFlagz and
// ComponentStatusz off.
import type { ClusterRole, PolicyRule } from '../../../api/rbac/v1/rbac.js';
import {
  aggregateTo,
  clusterRole,
  eventsRule,
  named,
  read,
  readUpdate,
  readWrite,
  rule,
  urls,
  write,
} from './builders.js';

const certificates = 'certificates.k8s.io';
const coordination = 'coordination.k8s.io';
const storage = 'storage.k8s.io';

const viewRules: readonly PolicyRule[] = [
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
  // Reading namespaces at namespace scope shows which namespaces one may use.
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
  rule(
    read,
    ['extensions'],
    [
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'ingresses',
      'ingresses/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'replicationcontrollers/scale',
      'networkpolicies',
    ],
  ),
  rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
  rule(read, ['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingresses/status']),
];

const editRules: readonly PolicyRule[] = [
  // Reading what lets one act as someone else is edit's, not view's.
  rule(
    read,
    [''],
    ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy'],
  ),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(write, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
  rule(['create'], [''], ['pods/eviction']),
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
  rule(
    write,
    ['extensions'],
    [
      'daemonsets',
      'deployments',
      'deployments/scale',
      'deployments/rollback',
      'ingresses',
      'replicasets',
      'replicasets/scale',
      'replicationcontrollers/scale',
      'networkpolicies',
    ],
  ),
  rule(write, ['policy'], ['poddisruptionbudgets']),
  rule(write, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
  rule(readWrite, [coordination], ['leases']),
];

// The Node authorizer and the NodeRestriction admission plugin narrow these to the node's own objects.
const nodeRules: readonly PolicyRule[] = [
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews', 'localsubjectaccessreviews']),
  rule(read, [''], ['services']),
  rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
  rule(['update', 'patch'], [''], ['nodes/status']),
  rule(['update', 'patch'], [''], ['nodes']),
  rule(['create', 'update', 'patch'], [''], ['events']),
  rule(read, [''], ['pods']),
  rule(['create', 'delete'], [''], ['pods']),
  rule(['update', 'patch'], [''], ['pods/status']),
  rule(['create'], [''], ['pods/eviction']),
  rule(['get', 'list', 'watch'], [''], ['secrets', 'configmaps']),
  rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['get'], [''], ['endpoints']),
  rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests']),
  rule(['get', 'create', 'update', 'patch', 'delete'], [coordination], ['leases']),
  rule(['get'], [storage], ['volumeattachments']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(['get', 'update', 'patch'], [''], ['persistentvolumeclaims/status']),
  rule(['get', 'watch', 'list'], [storage], ['csidrivers']),
  rule(['get', 'create', 'update', 'patch', 'delete'], [storage], ['csinodes']),
  rule(['get', 'list', 'watch'], ['node.k8s.io'], ['runtimeclasses']),
];

const kubeControllerManagerRules: readonly PolicyRule[] = [
  eventsRule(),
  // Leader election.
  rule(['create'], [coordination], ['leases']),
  named(rule(['get', 'update'], [coordination], ['leases']), ['kube-controller-manager']),
  // Enough to make the service accounts and tokens the controllers then act as.
  rule(['create'], [''], ['secrets', 'serviceaccounts']),
  rule(['delete'], [''], ['secrets']),
  rule(['get'], [''], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
  rule(['update'], [''], ['secrets', 'serviceaccounts']),
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  // The shared informers.
  rule(['list', 'watch'], ['*'], ['*']),
  rule(['create'], [''], ['serviceaccounts/token']),
];

const kubeSchedulerRules: readonly PolicyRule[] = [
  eventsRule(),
  // Leader election.
  rule(['create'], [coordination], ['leases']),
  named(rule(['get', 'update', 'list', 'watch'], [coordination], ['leases']), ['kube-scheduler']),
  rule(readWrite, [coordination], ['leasecandidates']),
  rule(read, [''], ['nodes']),
  rule(['get', 'list', 'watch', 'delete'], [''], ['pods']),
  rule(['create'], [''], ['pods/binding', 'bindings']),
  rule(['patch', 'update'], [''], ['pods/status']),
  // What selects pods, and what pods use.
  rule(read, [''], ['services', 'replicationcontrollers']),
  rule(read, ['apps', 'extensions'], ['replicasets']),
  rule(read, ['apps'], ['statefulsets']),
  rule(read, ['policy'], ['poddisruptionbudgets']),
  rule(read, [''], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  rule(read, [storage], ['csinodes']),
  rule(['get', 'list', 'watch'], [storage], ['volumeattachments']),
  rule(read, [''], ['namespaces']),
  rule(read, [storage], ['csidrivers']),
  rule(read, [storage], ['csistoragecapacities']),
];

const approver = (signer: string): ClusterRole =>
  clusterRole(`system:certificates.k8s.io:${signer.replace('kubernetes.io/', '')}-approver`, {
    rules: [named(rule(['approve'], [certificates], ['signers']), [signer])],
  });

export const clusterRoles: readonly ClusterRole[] = [
  clusterRole('cluster-admin', { rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] }),
  clusterRole('system:discovery', {
    rules: [
      urls(
        ['get'],
        [
          '/livez',
          '/readyz',
          '/healthz',
          '/version',
          '/version/',
          '/openapi',
          '/openapi/*',
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
        ],
      ),
    ],
  }),
  clusterRole('system:monitoring', {
    rules: [
      urls(
        ['get'],
        ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'],
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
    rules: [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])],
  }),
  clusterRole('admin', { aggregateFrom: 'admin' }),
  clusterRole('edit', { aggregateFrom: 'edit', labels: aggregateTo('admin') }),
  clusterRole('view', { aggregateFrom: 'view', labels: aggregateTo('edit') }),
  clusterRole('system:aggregate-to-admin', {
    labels: aggregateTo('admin'),
    rules: [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(readWrite, ['rbac.authorization.k8s.io'], ['roles', 'rolebindings']),
    ],
  }),
  clusterRole('system:aggregate-to-edit', { labels: aggregateTo('edit'), rules: editRules }),
  clusterRole('system:aggregate-to-view', { labels: aggregateTo('view'), rules: viewRules }),
  clusterRole('system:heapster', {
    rules: [
      rule(read, [''], ['events', 'pods', 'nodes', 'namespaces']),
      rule(read, ['extensions'], ['deployments']),
    ],
  }),
  clusterRole('system:node', { rules: nodeRules }),
  clusterRole('system:node-problem-detector', {
    rules: [rule(['get'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), eventsRule()],
  }),
  clusterRole('system:node-bootstrapper', {
    rules: [rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests'])],
  }),
  clusterRole('system:auth-delegator', {
    rules: [
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    ],
  }),
  clusterRole('system:kube-aggregator', { rules: [rule(read, [''], ['services', 'endpoints'])] }),
  clusterRole('system:kube-controller-manager', { rules: kubeControllerManagerRules }),
  clusterRole('system:kube-dns', { rules: [rule(['list', 'watch'], [''], ['endpoints', 'services'])] }),
  clusterRole('system:persistent-volume-provisioner', {
    rules: [
      rule(['get', 'list', 'watch', 'create', 'delete'], [''], ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
      rule(read, [storage], ['storageclasses']),
      rule(['watch'], [''], ['events']),
      eventsRule(),
    ],
  }),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', {
    rules: [rule(['create'], [certificates], ['certificatesigningrequests/nodeclient'])],
  }),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', {
    rules: [rule(['create'], [certificates], ['certificatesigningrequests/selfnodeclient'])],
  }),
  clusterRole('system:volume-scheduler', {
    rules: [
      rule(readUpdate, [''], ['persistentvolumes']),
      rule(read, [storage], ['storageclasses']),
      rule(readUpdate, [''], ['persistentvolumeclaims']),
    ],
  }),
  approver('kubernetes.io/legacy-unknown'),
  approver('kubernetes.io/kubelet-serving'),
  approver('kubernetes.io/kube-apiserver-client'),
  approver('kubernetes.io/kube-apiserver-client-kubelet'),
  // The trailing-slash paths serve clients generated from an older OpenAPI document.
  clusterRole('system:service-account-issuer-discovery', {
    rules: [
      urls(
        ['get'],
        [
          '/.well-known/openid-configuration',
          '/.well-known/openid-configuration/',
          '/openid/v1/jwks',
          '/openid/v1/jwks/',
        ],
      ),
    ],
  }),
  clusterRole('system:kubelet-api-admin', {
    rules: [
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      rule(['proxy'], [''], ['nodes']),
      rule(['*'], [''], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
      rule(['*'], [''], ['nodes/pods', 'nodes/healthz', 'nodes/configz']),
    ],
  }),
  clusterRole('system:node-proxier', {
    rules: [
      rule(['list', 'watch'], [''], ['services', 'endpoints']),
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      eventsRule(),
      rule(['list', 'watch'], ['networking.k8s.io'], ['servicecidrs']),
      rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    ],
  }),
  clusterRole('system:kube-scheduler', { rules: kubeSchedulerRules }),
];
