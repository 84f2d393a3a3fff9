// core/v1 Service(+List), ServiceSpec, ServicePort, ServiceStatus, LoadBalancerStatus and the structs
// they reference; metav1.Condition (status.conditions) is defined here until another kind needs it.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind, metaV1 } from '../../schema/api-module.js';
import {
  arrayOf,
  atomicList,
  bool,
  int32,
  int64,
  ref,
  str,
  stringMap,
  struct,
} from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { INT_OR_STRING, type IntOrString } from '../../util/int-or-string.js';

export const serviceTypes = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] as const;
export type ServiceType = (typeof serviceTypes)[number];

export const ipFamilyPolicies = ['SingleStack', 'PreferDualStack', 'RequireDualStack'] as const;
export type IPFamilyPolicy = (typeof ipFamilyPolicies)[number];

export const ipFamilies = ['IPv4', 'IPv6'] as const;
export type IPFamily = (typeof ipFamilies)[number];

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port: number;
  targetPort?: IntOrString;
  nodePort?: number;
}

export interface ClientIPConfig {
  timeoutSeconds?: number;
}

export interface SessionAffinityConfig {
  clientIP?: ClientIPConfig;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: string;
  externalIPs?: string[];
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: SessionAffinityConfig;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: string;
  trafficDistribution?: string;
}

export interface PortStatus {
  port: number;
  protocol: string;
  error?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string;
  ports?: PortStatus[];
}

export interface LoadBalancerStatus {
  ingress?: LoadBalancerIngress[];
}

/** metav1.Condition. */
export interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface ServiceStatus {
  loadBalancer?: LoadBalancerStatus;
  conditions?: Condition[];
}

export interface Service extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Service';
  metadata?: ObjectMeta;
  spec?: ServiceSpec;
  status?: ServiceStatus;
}

export interface ServiceList extends KubeObject {
  metadata?: ListMeta;
  items: Service[];
}

export const serviceKind = coreV1Kind('Service');
export const serviceListKind = coreV1Kind('ServiceList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const SPEC = coreV1('ServiceSpec');
const PORT = coreV1('ServicePort');
const STATUS = coreV1('ServiceStatus');
const LB_STATUS = coreV1('LoadBalancerStatus');
const LB_INGRESS = coreV1('LoadBalancerIngress');
const PORT_STATUS = coreV1('PortStatus');
const AFFINITY = coreV1('SessionAffinityConfig');
const CLIENT_IP = coreV1('ClientIPConfig');
const CONDITION = metaV1('Condition');

const strings = (description: string): ReturnType<typeof atomicList> =>
  atomicList({ type: 'string' }, description);

export const serviceModule: APIModule = {
  definitions: {
    [coreV1('Service')]: struct('A named abstraction of software service.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'The behavior of the service.', { default: {} }),
      status: ref(STATUS, 'The most recently observed status of the service.', { default: {} }),
    }),
    [SPEC]: struct('The attributes a user creates on a service.', {
      allocateLoadBalancerNodePorts: bool('Whether NodePorts are allocated for a LoadBalancer service.'),
      clusterIP: str('The IP address of the service, "None" for a headless service.'),
      clusterIPs: strings('The IP addresses of the service, primary first.'),
      externalIPs: strings('IP addresses for which nodes also accept traffic for this service.'),
      externalName: str('The external reference an ExternalName service aliases (a DNS name).'),
      externalTrafficPolicy: str('How traffic from external sources is routed: Cluster or Local.', {
        enum: ['Cluster', 'Local'],
      }),
      healthCheckNodePort: int32('The health check node port of a LoadBalancer service with Local policy.'),
      internalTrafficPolicy: str('How traffic from cluster sources is routed: Cluster or Local.', {
        enum: ['Cluster', 'Local'],
      }),
      ipFamilies: strings('The IP families (IPv4, IPv6) of the service, primary first.'),
      ipFamilyPolicy: str('SingleStack, PreferDualStack or RequireDualStack.', {
        enum: ['PreferDualStack', 'RequireDualStack', 'SingleStack'],
      }),
      loadBalancerClass: str('The class of the load balancer implementation.'),
      loadBalancerIP: str('Deprecated: the IP a load balancer is asked for.'),
      loadBalancerSourceRanges: strings('Client IP ranges a cloud load balancer lets through.'),
      ports: arrayOf(ref(PORT, undefined, { default: {} }), 'The ports the service exposes.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'port',
      }),
      publishNotReadyAddresses: bool('Whether addresses of not-ready endpoints are published.'),
      selector: {
        ...stringMap('Pods with these labels receive the traffic.'),
        'x-kubernetes-map-type': 'atomic',
      },
      sessionAffinity: str('ClientIP or None.', { enum: ['ClientIP', 'None'] }),
      sessionAffinityConfig: ref(AFFINITY, 'Configuration of session affinity.'),
      trafficDistribution: str('How traffic is distributed to endpoints.'),
      type: str('ClusterIP, NodePort, LoadBalancer or ExternalName.', {
        enum: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'],
      }),
    }),
    [PORT]: struct(
      'One port a service exposes.',
      {
        appProtocol: str('The application protocol of the port.'),
        name: str('The name of the port, a DNS label unique in the service.'),
        nodePort: int32('The port on each node for NodePort and LoadBalancer services.'),
        port: int32('The port the service exposes.', { default: 0 }),
        protocol: str('TCP, UDP or SCTP.', { default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'] }),
        targetPort: ref(INT_OR_STRING, 'The number or name of the port on the pods.'),
      },
      { required: ['port'] },
    ),
    [AFFINITY]: struct('Session affinity settings.', {
      clientIP: ref(CLIENT_IP, 'Settings of ClientIP session affinity.'),
    }),
    [CLIENT_IP]: struct('ClientIP session affinity settings.', {
      timeoutSeconds: int32('How long a session sticks, 1 to 86400 seconds (default 10800).'),
    }),
    [STATUS]: struct('The current status of a service.', {
      conditions: arrayOf(ref(CONDITION, undefined, { default: {} }), 'Current service state.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'type',
      }),
      loadBalancer: ref(LB_STATUS, 'The status of the load balancer, if any.', { default: {} }),
    }),
    [LB_STATUS]: struct('The status of a load balancer.', {
      ingress: atomicList(
        ref(LB_INGRESS, undefined, { default: {} }),
        'Ingress points of the load balancer.',
      ),
    }),
    [LB_INGRESS]: struct('An ingress point of a load balancer.', {
      hostname: str('Hostname of a DNS-based ingress point.'),
      ip: str('IP of an IP-based ingress point.'),
      ipMode: str('How the load balancer IP behaves: VIP or Proxy.'),
      ports: atomicList(ref(PORT_STATUS, undefined, { default: {} }), 'Records of the service ports.'),
    }),
    [PORT_STATUS]: struct(
      'The status of one service port.',
      {
        error: str('Why the port is in error, CamelCase.'),
        port: int32('The port number.', { default: 0 }),
        protocol: str('TCP, UDP or SCTP.', { default: '' }),
      },
      { required: ['port', 'protocol'] },
    ),
    [CONDITION]: struct(
      'One aspect of the current state of a resource.',
      {
        lastTransitionTime: ref(TIME, 'When the condition last changed status.'),
        message: str('A human readable message.', { default: '' }),
        observedGeneration: int64('The generation the condition was set for.'),
        reason: str('Why the condition last changed, CamelCase.', { default: '' }),
        status: str('True, False or Unknown.', { default: '' }),
        type: str('The type of the condition, CamelCase.', { default: '' }),
      },
      { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] },
    ),
    [coreV1('ServiceList')]: struct(
      'A list of services.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('Service'), undefined, { default: {} }), 'The services.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [serviceKind, serviceListKind],
  goTypes: {
    [SPEC]: {
      type: 'v1.ServiceType',
      sessionAffinity: 'v1.ServiceAffinity',
      externalTrafficPolicy: 'v1.ServiceExternalTrafficPolicy',
      internalTrafficPolicy: 'v1.ServiceInternalTrafficPolicy',
      ipFamilies: '[]v1.IPFamily',
      ipFamilyPolicy: 'v1.IPFamilyPolicy',
    },
    [PORT]: { protocol: 'v1.Protocol' },
  },
  protobuf: {
    [coreV1('Service')]: { metadata: 1, spec: 2, status: 3 },
    [coreV1('ServiceList')]: { metadata: 1, items: 2 },
    [SPEC]: {
      ports: 1,
      selector: 2,
      clusterIP: 3,
      clusterIPs: 18,
      type: 4,
      externalIPs: 5,
      sessionAffinity: 7,
      loadBalancerIP: 8,
      loadBalancerSourceRanges: 9,
      externalName: 10,
      externalTrafficPolicy: 11,
      healthCheckNodePort: 12,
      publishNotReadyAddresses: 13,
      sessionAffinityConfig: pointer(14),
      ipFamilies: 19,
      ipFamilyPolicy: pointer(17),
      allocateLoadBalancerNodePorts: pointer(20),
      loadBalancerClass: pointer(21),
      internalTrafficPolicy: pointer(22),
      trafficDistribution: pointer(23),
    },
    [PORT]: { name: 1, protocol: 2, appProtocol: pointer(6), port: 3, targetPort: 4, nodePort: 5 },
    [AFFINITY]: { clientIP: pointer(1) },
    [CLIENT_IP]: { timeoutSeconds: pointer(1) },
    [STATUS]: { loadBalancer: 1, conditions: 2 },
    [LB_STATUS]: { ingress: 1 },
    [LB_INGRESS]: { ip: 1, hostname: 2, ipMode: pointer(3), ports: 4 },
    [PORT_STATUS]: { port: 1, protocol: 2, error: pointer(3) },
    [CONDITION]: {
      type: 1,
      status: 2,
      observedGeneration: 3,
      lastTransitionTime: 4,
      reason: 5,
      message: 6,
    },
  },
};
