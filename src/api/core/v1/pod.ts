// core/v1 Pod(+List), PodSpec, PodSecurityContext, Toleration (affinity.ts holds Affinity).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { Affinity } from './affinity.js';
import type { ResourceRequirements } from './container.js';
import type { PodResourceClaim } from './resource-claims.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import {
  arrayOf,
  atomicList,
  bool,
  int32,
  int64,
  mapList,
  mapOf,
  ref,
  str,
  stringMap,
  struct,
} from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { CONTAINER, type Container } from './container.js';
import { EPHEMERAL_CONTAINER, type EphemeralContainer } from './ephemeral-container.js';
import { LOCAL_OBJECT_REFERENCE } from './object-reference.js';
import { POD_STATUS, type PodStatus } from './pod-status.js';
import { VOLUME, type Volume } from './volume.js';
import {
  HOST_ALIAS,
  POD_DNS_CONFIG,
  POD_OS,
  POD_READINESS_GATE,
  POD_SCHEDULING_GATE,
  TOPOLOGY_SPREAD_CONSTRAINT,
  type HostAlias,
  type PodDNSConfig,
  type TopologySpreadConstraint,
} from './pod-spec-parts.js';
import {
  APP_ARMOR_PROFILE,
  SE_LINUX_OPTIONS,
  SECCOMP_PROFILE,
  SYSCTL,
  WINDOWS_OPTIONS,
  type SELinuxOptions,
  type SecurityProfile,
  type Sysctl,
  type WindowsSecurityContextOptions,
} from './security-options.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface PodSecurityContext {
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  supplementalGroups?: number[];
  supplementalGroupsPolicy?: string;
  fsGroup?: number;
  sysctls?: Sysctl[];
  fsGroupChangePolicy?: string;
  seccompProfile?: SecurityProfile;
  appArmorProfile?: SecurityProfile;
  seLinuxChangePolicy?: string;
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  /** Added and read only through pods/<name>/ephemeralcontainers. */
  ephemeralContainers?: EphemeralContainer[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: { name?: string }[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  priorityClassName?: string;
  priority?: number;
  enableServiceLinks?: boolean;
  /** Set from the PriorityClass by the Priority admission plugin. */
  preemptionPolicy?: string;
  runtimeClassName?: string;
  /** Set from the RuntimeClass by the RuntimeClass admission plugin. */
  overhead?: Record<string, Quantity>;
  hostAliases?: HostAlias[];
  dnsConfig?: PodDNSConfig;
  shareProcessNamespace?: boolean;
  readinessGates?: { conditionType: string }[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  setHostnameAsFQDN?: boolean;
  os?: { name: string };
  hostUsers?: boolean;
  schedulingGates?: { name: string }[];
  resourceClaims?: PodResourceClaim[];
  resources?: ResourceRequirements;
}

export interface Pod extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Pod';
  metadata?: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}

export interface PodList extends KubeObject {
  metadata?: ListMeta;
  items: Pod[];
}

/** A static pod's mirror in the API (kubelet's ConfigMirrorAnnotationKey). */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

export const podKind = coreV1Kind('Pod');
export const podListKind = coreV1Kind('PodList');

const POD_SPEC = coreV1('PodSpec');
const POD_SECURITY = coreV1('PodSecurityContext');
const TOLERATION = coreV1('Toleration');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const containers = (description: string): ReturnType<typeof mapList> =>
  mapList(ref(CONTAINER), 'name', description);

export const podModule: APIModule = {
  definitions: {
    [coreV1('Pod')]: struct('A collection of containers that run on one host.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(POD_SPEC, 'Desired behaviour of the pod.', { default: {} }),
      status: ref(POD_STATUS, 'Observed state of the pod.', { default: {} }),
    }),
    [POD_SPEC]: struct(
      'Desired behaviour of a pod.',
      {
        activeDeadlineSeconds: int64(),
        affinity: ref(coreV1('Affinity'), 'Scheduling constraints.'),
        automountServiceAccountToken: bool(),
        containers: containers('Containers of the pod; at least one.'),
        dnsConfig: ref(POD_DNS_CONFIG, 'DNS parameters merged into those of the DNS policy.'),
        dnsPolicy: str('ClusterFirstWithHostNet, ClusterFirst, Default or None.', {
          enum: ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
          default: 'ClusterFirst',
        }),
        enableServiceLinks: bool('Service environment variables are injected.'),
        ephemeralContainers: mapList(
          ref(EPHEMERAL_CONTAINER),
          'name',
          'Containers added to the running pod through its ephemeralcontainers subresource.',
        ),
        hostAliases: arrayOf(ref(HOST_ALIAS), "Entries added to the pod's /etc/hosts.", {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['ip'],
          'x-kubernetes-patch-strategy': 'merge',
          'x-kubernetes-patch-merge-key': 'ip',
        }),
        hostIPC: bool(),
        hostNetwork: bool(),
        hostPID: bool(),
        hostUsers: bool('Whether the pod uses the host user namespace.'),
        hostname: str(),
        imagePullSecrets: mapList(ref(LOCAL_OBJECT_REFERENCE), 'name', 'Secrets for pulling images.'),
        initContainers: containers('Containers run to completion before the others start.'),
        nodeName: str('Node the pod is bound to.'),
        nodeSelector: { ...stringMap('Labels a node must have.'), 'x-kubernetes-map-type': 'atomic' },
        os: ref(POD_OS, 'The OS of the containers.'),
        overhead: mapOf(ref(QUANTITY), 'Resources the pod uses beyond its containers.'),
        preemptionPolicy: str('Never or PreemptLowerPriority.', { enum: ['Never', 'PreemptLowerPriority'] }),
        priority: int32(),
        priorityClassName: str(),
        readinessGates: atomicList(ref(POD_READINESS_GATE), 'Conditions the readiness waits for.'),
        resourceClaims: arrayOf(ref(coreV1('PodResourceClaim')), 'ResourceClaims the pod uses.', {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-patch-strategy': 'merge,retainKeys',
          'x-kubernetes-patch-merge-key': 'name',
        }),
        resources: ref(coreV1('ResourceRequirements'), 'Resources of the whole pod.'),
        restartPolicy: str('Always, OnFailure or Never.', {
          enum: ['Always', 'Never', 'OnFailure'],
          default: 'Always',
        }),
        runtimeClassName: str('The RuntimeClass the pod runs with.'),
        schedulerName: str(undefined, { default: 'default-scheduler' }),
        schedulingGates: mapList(
          ref(POD_SCHEDULING_GATE),
          'name',
          'Gates the pod waits on before scheduling.',
        ),
        securityContext: ref(POD_SECURITY, undefined, { default: {} }),
        serviceAccount: str('Deprecated alias of serviceAccountName.'),
        serviceAccountName: str(),
        setHostnameAsFQDN: bool('The hostname is the fully qualified domain name.'),
        shareProcessNamespace: bool('Containers share one process namespace.'),
        subdomain: str(),
        terminationGracePeriodSeconds: int64(undefined, { default: 30 }),
        tolerations: atomicList(ref(TOLERATION), 'Taints the pod tolerates.'),
        topologySpreadConstraints: arrayOf(
          ref(TOPOLOGY_SPREAD_CONSTRAINT),
          'How the pod spreads among topology domains.',
          {
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['topologyKey', 'whenUnsatisfiable'],
            'x-kubernetes-patch-strategy': 'merge',
            'x-kubernetes-patch-merge-key': 'topologyKey',
          },
        ),
        volumes: arrayOf(ref(VOLUME), 'Volumes containers may mount.', {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-patch-strategy': 'merge,retainKeys',
          'x-kubernetes-patch-merge-key': 'name',
        }),
      },
      { required: ['containers'] },
    ),
    [POD_SECURITY]: struct('Security options of every container of a pod.', {
      appArmorProfile: ref(APP_ARMOR_PROFILE),
      fsGroup: int64(),
      fsGroupChangePolicy: str('OnRootMismatch or Always.', { enum: ['Always', 'OnRootMismatch'] }),
      runAsGroup: int64(),
      runAsNonRoot: bool(),
      runAsUser: int64(),
      seLinuxChangePolicy: str('MountOption or Recursive.'),
      seLinuxOptions: ref(SE_LINUX_OPTIONS),
      seccompProfile: ref(SECCOMP_PROFILE),
      supplementalGroups: atomicList({ type: 'integer', format: 'int64' }),
      supplementalGroupsPolicy: str('Merge or Strict.', { enum: ['Merge', 'Strict'] }),
      sysctls: atomicList(ref(SYSCTL), 'Namespaced sysctls set for the pod.'),
      windowsOptions: ref(WINDOWS_OPTIONS),
    }),
    [TOLERATION]: struct('A taint the pod tolerates.', {
      effect: str(undefined, { enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] }),
      key: str(),
      operator: str(undefined, { enum: ['Equal', 'Exists'] }),
      tolerationSeconds: int64(),
      value: str(),
    }),
    [coreV1('PodList')]: struct(
      'A list of Pods.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('Pod'), undefined, { default: {} }), 'The Pods.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [podKind, podListKind],
  goTypes: {
    [POD_SPEC]: { restartPolicy: 'v1.RestartPolicy', dnsPolicy: 'v1.DNSPolicy' },
  },
  protobuf: {
    [coreV1('Pod')]: { metadata: 1, spec: 2, status: 3 },
    [POD_SPEC]: {
      volumes: 1,
      initContainers: 20,
      containers: 2,
      ephemeralContainers: 34,
      restartPolicy: 3,
      terminationGracePeriodSeconds: pointer(4),
      activeDeadlineSeconds: pointer(5),
      dnsPolicy: 6,
      nodeSelector: 7,
      serviceAccountName: 8,
      serviceAccount: 9,
      automountServiceAccountToken: pointer(21),
      nodeName: 10,
      hostNetwork: 11,
      hostPID: 12,
      hostIPC: 13,
      shareProcessNamespace: pointer(27),
      securityContext: pointer(14),
      imagePullSecrets: 15,
      hostname: 16,
      subdomain: 17,
      affinity: pointer(18),
      schedulerName: 19,
      tolerations: 22,
      hostAliases: 23,
      priorityClassName: 24,
      priority: pointer(25),
      dnsConfig: pointer(26),
      readinessGates: 28,
      runtimeClassName: pointer(29),
      enableServiceLinks: pointer(30),
      preemptionPolicy: pointer(31),
      overhead: 32,
      topologySpreadConstraints: 33,
      setHostnameAsFQDN: pointer(35),
      os: pointer(36),
      hostUsers: pointer(37),
      schedulingGates: 38,
      resourceClaims: 39,
      resources: pointer(40),
    },
    [POD_SECURITY]: {
      seLinuxOptions: pointer(1),
      windowsOptions: pointer(8),
      runAsUser: pointer(2),
      runAsGroup: pointer(6),
      runAsNonRoot: pointer(3),
      supplementalGroups: 4,
      supplementalGroupsPolicy: pointer(12),
      fsGroup: pointer(5),
      sysctls: 7,
      fsGroupChangePolicy: pointer(9),
      seccompProfile: pointer(10),
      appArmorProfile: pointer(11),
      seLinuxChangePolicy: pointer(13),
    },
    [TOLERATION]: { key: 1, operator: 2, value: 3, effect: 4, tolerationSeconds: pointer(5) },
    [coreV1('PodList')]: { metadata: 1, items: 2 },
  },
};
