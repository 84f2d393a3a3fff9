// kube 1.33's `system:controller:*` ClusterRoles, one per kube-controller-manager controller, each
// bound to the kube-system service account of its name (bootstrappolicy/controller_policy.go
// ControllerRoles and ControllerRoleBindings), in kube's order. Feature gates at their 1.33
// defaults: MultiCIDRServiceAllocator, StatefulSetAutoDeletePVC and SELinuxChangePolicy on;
// DynamicResourceAllocation, DRADeviceTaints, VolumeAttributesClass, ClusterTrustBundle,
// StorageVersionAPI and StorageVersionMigrator off.
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from '../../../api/rbac/v1/rbac.js';
import { clusterRole, clusterRoleBinding, eventsRule, named, rule, serviceAccounts } from './builders.js';

const prefix = 'system:controller:';
const apps = 'apps';
const ext = 'extensions';
const batch = 'batch';
const policy = 'policy';
const certificates = 'certificates.k8s.io';
const storage = 'storage.k8s.io';
const networking = 'networking.k8s.io';
const r3 = ['get', 'list', 'watch'];

const controllers: readonly (readonly [string, readonly PolicyRule[]])[] = [
  [
    'attachdetach-controller',
    [
      rule(['list', 'watch'], [''], ['persistentvolumes', 'persistentvolumeclaims']),
      rule(r3, [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['list', 'watch'], [''], ['pods']),
      eventsRule(),
      rule(['get', 'create', 'delete', 'list', 'watch'], [storage], ['volumeattachments']),
      rule(r3, [storage], ['csidrivers']),
      rule(r3, [storage], ['csinodes']),
    ],
  ],
  // Full power over ClusterRoles, to write any aggregated rules.
  [
    'clusterrole-aggregation-controller',
    [
      rule(
        ['escalate', 'get', 'list', 'watch', 'update', 'patch'],
        ['rbac.authorization.k8s.io'],
        ['clusterroles'],
      ),
    ],
  ],
  [
    'cronjob-controller',
    [
      rule([...r3, 'update'], [batch], ['cronjobs']),
      rule([...r3, 'create', 'update', 'delete', 'patch'], [batch], ['jobs']),
      rule(['update'], [batch], ['cronjobs/status']),
      rule(['update'], [batch], ['cronjobs/finalizers']),
      rule(['list', 'watch', 'delete'], [''], ['pods']),
      eventsRule(),
    ],
  ],
  [
    'daemon-set-controller',
    [
      rule(r3, [ext, apps], ['daemonsets']),
      rule(['update'], [ext, apps], ['daemonsets/status']),
      rule(['update'], [ext, apps], ['daemonsets/finalizers']),
      rule(['list', 'watch'], [''], ['nodes']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
      rule(['create'], [''], ['pods/binding']),
      rule([...r3, 'create', 'delete', 'update', 'patch'], [apps], ['controllerrevisions']),
      eventsRule(),
    ],
  ],
  [
    'deployment-controller',
    [
      rule([...r3, 'update'], [ext, apps], ['deployments']),
      rule(['update'], [ext, apps], ['deployments/status']),
      rule(['update'], [ext, apps], ['deployments/finalizers']),
      rule([...r3, 'create', 'update', 'patch', 'delete'], [apps, ext], ['replicasets']),
      rule([...r3, 'update'], [''], ['pods']),
      eventsRule(),
    ],
  ],
  [
    'disruption-controller',
    [
      rule(r3, [ext, apps], ['deployments']),
      rule(r3, [apps, ext], ['replicasets']),
      rule(r3, [''], ['replicationcontrollers']),
      rule(r3, [policy], ['poddisruptionbudgets']),
      rule(r3, [apps], ['statefulsets']),
      rule(['update'], [policy], ['poddisruptionbudgets/status']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['get'], ['*'], ['*/scale']),
      eventsRule(),
    ],
  ],
  [
    'endpoint-controller',
    [
      rule(r3, [''], ['services', 'pods']),
      rule([...r3, 'create', 'update', 'delete'], [''], ['endpoints']),
      rule(['create'], [''], ['endpoints/restricted']),
      eventsRule(),
    ],
  ],
  // The finalizer updates let slices be owned, with blockOwnerDeletion, by a Service or Endpoints.
  [
    'endpointslice-controller',
    [
      rule(r3, [''], ['services', 'pods', 'nodes']),
      rule(['update'], [''], ['services/finalizers']),
      rule([...r3, 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      eventsRule(),
    ],
  ],
  [
    'endpointslicemirroring-controller',
    [
      rule(r3, [''], ['services', 'endpoints']),
      rule(['update'], [''], ['services/finalizers']),
      rule(['update'], [''], ['endpoints/finalizers']),
      rule([...r3, 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      eventsRule(),
    ],
  ],
  [
    'expand-controller',
    [
      rule([...r3, 'update', 'patch'], [''], ['persistentvolumes']),
      rule(['update', 'patch'], [''], ['persistentvolumeclaims/status']),
      rule(r3, [''], ['persistentvolumeclaims']),
      eventsRule(),
      rule(['get'], [''], ['services']),
    ],
  ],
  [
    'ephemeral-volume-controller',
    [
      rule(r3, [''], ['pods']),
      rule(['update'], [''], ['pods/finalizers']),
      rule([...r3, 'create'], [''], ['persistentvolumeclaims']),
      eventsRule(),
    ],
  ],
  ['generic-garbage-collector', [rule([...r3, 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule()]],
  [
    'horizontal-pod-autoscaler',
    [
      rule(r3, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
      rule(['get', 'update'], ['*'], ['*/scale']),
      rule(['list', 'watch'], [''], ['pods']),
      rule(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
      rule(r3, ['custom.metrics.k8s.io'], ['*']),
      rule(r3, ['external.metrics.k8s.io'], ['*']),
      eventsRule(),
    ],
  ],
  [
    'job-controller',
    [
      rule([...r3, 'update', 'patch'], [batch], ['jobs']),
      rule(['update'], [batch], ['jobs/status']),
      rule(['update'], [batch], ['jobs/finalizers']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
      eventsRule(),
    ],
  ],
  [
    'namespace-controller',
    [
      rule([...r3, 'delete'], [''], ['namespaces']),
      rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
      rule([...r3, 'delete', 'deletecollection'], ['*'], ['*']),
    ],
  ],
  [
    'node-controller',
    [
      rule([...r3, 'update', 'delete', 'patch'], [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['list', 'watch', 'get', 'delete'], [''], ['pods']),
      eventsRule(),
    ],
  ],
  [
    'persistent-volume-binder',
    [
      rule([...r3, 'update', 'create', 'delete'], [''], ['persistentvolumes']),
      rule(['update'], [''], ['persistentvolumes/status']),
      rule([...r3, 'update'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['persistentvolumeclaims/status']),
      rule(['list', 'watch', 'get', 'create', 'delete'], [''], ['pods']),
      rule(r3, [storage], ['storageclasses']),
      rule(['list', 'watch'], [''], ['nodes']),
      eventsRule(),
      rule(['watch'], [''], ['events']),
      rule(['get'], [''], ['services']),
    ],
  ],
  [
    'pod-garbage-collector',
    [
      rule(['list', 'watch', 'delete'], [''], ['pods']),
      rule(r3, [''], ['nodes']),
      rule(['patch'], [''], ['pods/status']),
    ],
  ],
  [
    'replicaset-controller',
    [
      rule([...r3, 'update'], [apps, ext], ['replicasets']),
      rule(['update'], [apps, ext], ['replicasets/status']),
      rule(['update'], [apps, ext], ['replicasets/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
      eventsRule(),
    ],
  ],
  [
    'replication-controller',
    [
      rule([...r3, 'update'], [''], ['replicationcontrollers']),
      rule(['update'], [''], ['replicationcontrollers/status']),
      rule(['update'], [''], ['replicationcontrollers/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
      eventsRule(),
    ],
  ],
  [
    'resourcequota-controller',
    [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [''], ['resourcequotas/status']), eventsRule()],
  ],
  [
    'route-controller',
    [rule(['list', 'watch'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), eventsRule()],
  ],
  ['service-account-controller', [rule(['create'], [''], ['serviceaccounts']), eventsRule()]],
  [
    'service-controller',
    [
      rule(r3, [''], ['services']),
      rule(['patch', 'update'], [''], ['services/status']),
      rule(['list', 'watch'], [''], ['nodes']),
      eventsRule(),
    ],
  ],
  [
    'service-cidrs-controller',
    [
      rule([...r3, 'patch', 'update'], [networking], ['servicecidrs']),
      rule(['patch', 'update'], [networking], ['servicecidrs/finalizers']),
      rule(['patch', 'update'], [networking], ['servicecidrs/status']),
      rule(r3, [networking], ['ipaddresses']),
      eventsRule(),
    ],
  ],
  [
    'statefulset-controller',
    [
      rule(['list', 'watch'], [''], ['pods']),
      rule(r3, [apps], ['statefulsets']),
      rule(['update'], [apps], ['statefulsets/status']),
      rule(['update'], [apps], ['statefulsets/finalizers']),
      rule(['get', 'create', 'delete', 'update', 'patch'], [''], ['pods']),
      rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [apps], ['controllerrevisions']),
      rule(['get', 'create', 'list', 'watch'], [''], ['persistentvolumeclaims']),
      eventsRule(),
      rule(['update', 'delete'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['pods/finalizers']),
    ],
  ],
  ['ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [''], ['nodes']), eventsRule()]],
  [
    'certificate-controller',
    [
      rule([...r3, 'delete'], [certificates], ['certificatesigningrequests']),
      rule(
        ['update'],
        [certificates],
        ['certificatesigningrequests/status', 'certificatesigningrequests/approval'],
      ),
      named(rule(['approve'], [certificates], ['signers']), ['kubernetes.io/kube-apiserver-client-kubelet']),
      named(rule(['sign'], [certificates], ['signers']), [
        'kubernetes.io/legacy-unknown',
        'kubernetes.io/kube-apiserver-client',
        'kubernetes.io/kube-apiserver-client-kubelet',
        'kubernetes.io/kubelet-serving',
      ]),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      eventsRule(),
    ],
  ],
  [
    'pvc-protection-controller',
    [
      rule([...r3, 'update'], [''], ['persistentvolumeclaims']),
      rule(['list', 'watch', 'get'], [''], ['pods']),
      eventsRule(),
    ],
  ],
  ['pv-protection-controller', [rule([...r3, 'update'], [''], ['persistentvolumes']), eventsRule()]],
  ['ttl-after-finished-controller', [rule([...r3, 'delete'], [batch], ['jobs']), eventsRule()]],
  ['root-ca-cert-publisher', [rule(['create', 'update'], [''], ['configmaps']), eventsRule()]],
  [
    'validatingadmissionpolicy-status-controller',
    [
      rule(r3, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
      rule(
        ['get', 'patch', 'update'],
        ['admissionregistration.k8s.io'],
        ['validatingadmissionpolicies/status'],
      ),
      eventsRule(),
    ],
  ],
  [
    'legacy-service-account-token-cleaner',
    [
      named(rule(['get'], [''], ['configmaps']), ['kube-apiserver-legacy-service-account-token-tracking']),
      rule(['patch', 'delete'], [''], ['secrets']),
    ],
  ],
  [
    'selinux-warning-controller',
    [
      eventsRule(),
      rule(r3, [''], ['persistentvolumes']),
      rule(r3, [''], ['persistentvolumeclaims']),
      rule(r3, [''], ['pods']),
      rule(r3, [storage], ['csidrivers']),
    ],
  ],
];

export const controllerRoles: readonly ClusterRole[] = controllers.map(([name, rules]) =>
  clusterRole(prefix + name, { rules }),
);

export const controllerRoleBindings: readonly ClusterRoleBinding[] = controllers.map(([name]) =>
  clusterRoleBinding(prefix + name, serviceAccounts('kube-system', name)),
);
