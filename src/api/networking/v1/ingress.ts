// networking.k8s.io/v1 Ingress(+List) (k8s.io/api/networking/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, coreV1, groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export const networkingV1 = { group: 'networking.k8s.io', version: 'v1' } as const;
export const networkingV1Def = apiDefinitions('networking', 'v1');

export const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'] as const;

export interface ServiceBackendPort {
  name?: string;
  number?: number;
}

export interface IngressServiceBackend {
  name: string;
  port?: ServiceBackendPort;
}

export interface IngressBackend {
  service?: IngressServiceBackend;
  resource?: { apiGroup?: string; kind: string; name: string };
}

export interface HTTPIngressPath {
  path?: string;
  pathType?: string;
  backend: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths: HTTPIngressPath[] };
}

export interface IngressTLS {
  hosts?: string[];
  secretName?: string;
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: IngressTLS[];
  rules?: IngressRule[];
}

export interface IngressPortStatus {
  port: number;
  protocol: string;
  error?: string;
}

export interface IngressLoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: IngressPortStatus[];
}

export interface IngressStatus {
  loadBalancer?: { ingress?: IngressLoadBalancerIngress[] };
}

export interface Ingress extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'Ingress';
  metadata?: ObjectMeta;
  spec?: IngressSpec;
  status?: IngressStatus;
}

export interface IngressList extends KubeObject {
  metadata?: ListMeta;
  items: Ingress[];
}

const INGRESS = networkingV1Def('Ingress');
const INGRESS_LIST = networkingV1Def('IngressList');
const SPEC = networkingV1Def('IngressSpec');
const STATUS = networkingV1Def('IngressStatus');
const BACKEND = networkingV1Def('IngressBackend');
const SERVICE_BACKEND = networkingV1Def('IngressServiceBackend');
const BACKEND_PORT = networkingV1Def('ServiceBackendPort');
const RULE = networkingV1Def('IngressRule');
const RULE_VALUE = networkingV1Def('IngressRuleValue');
const HTTP_RULE = networkingV1Def('HTTPIngressRuleValue');
const HTTP_PATH = networkingV1Def('HTTPIngressPath');
const TLS = networkingV1Def('IngressTLS');
const LB_STATUS = networkingV1Def('IngressLoadBalancerStatus');
const LB_INGRESS = networkingV1Def('IngressLoadBalancerIngress');
const PORT_STATUS = networkingV1Def('IngressPortStatus');

export const ingressKind = groupKind(networkingV1, 'Ingress', INGRESS);
export const ingressListKind = groupKind(networkingV1, 'IngressList', INGRESS_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const ingressModule: APIModule = {
  definitions: {
    [BACKEND_PORT]: struct(
      'A port of a Service, by name or number.',
      {
        name: str('The name of the port on the Service.'),
        number: int32('The port number on the Service.'),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [SERVICE_BACKEND]: struct(
      'A Service as a backend.',
      {
        name: str('The Service, in the namespace of the Ingress.', { default: '' }),
        port: ref(BACKEND_PORT, 'The port of the Service.', { default: {} }),
      },
      { required: ['name'] },
    ),
    [BACKEND]: struct('Where matching traffic goes: a Service or another resource.', {
      resource: ref(coreV1('TypedLocalObjectReference'), 'Another resource in the namespace of the Ingress.'),
      service: ref(SERVICE_BACKEND, 'A Service.'),
    }),
    [HTTP_PATH]: struct(
      'A path and the backend its requests go to.',
      {
        backend: ref(BACKEND, 'Where requests for this path go.', { default: {} }),
        path: str('The path requests are matched against.'),
        pathType: str('How the path is matched: Exact, Prefix or ImplementationSpecific.', {
          enum: [...pathTypes],
        }),
      },
      { required: ['pathType', 'backend'] },
    ),
    [HTTP_RULE]: struct(
      'HTTP paths and their backends.',
      { paths: atomicList(ref(HTTP_PATH, undefined, { default: {} }), 'The paths.') },
      { required: ['paths'] },
    ),
    [RULE_VALUE]: struct('How requests matching a rule are routed.', {
      http: ref(HTTP_RULE, 'HTTP routing.'),
    }),
    [RULE]: struct('Routing for one host.', {
      host: str('The host name the rule applies to; all hosts when empty.'),
      http: ref(HTTP_RULE, 'HTTP routing.'),
    }),
    [TLS]: struct('TLS for a set of hosts.', {
      hosts: atomicList(str(undefined, { default: '' }), 'The hosts the certificate covers.'),
      secretName: str('The Secret holding the certificate and key.'),
    }),
    [SPEC]: struct('The desired routing.', {
      defaultBackend: ref(BACKEND, 'Where requests matching no rule go.'),
      ingressClassName: str('The IngressClass that implements this Ingress.'),
      rules: atomicList(ref(RULE, undefined, { default: {} }), 'The host rules.'),
      tls: atomicList(ref(TLS, undefined, { default: {} }), 'TLS configuration.'),
    }),
    [PORT_STATUS]: struct(
      'The state of a port of a load balancer.',
      {
        error: str('Why the port is not working.'),
        port: int32('The port number.', { default: 0 }),
        protocol: str('TCP, UDP or SCTP.', { default: '' }),
      },
      { required: ['port', 'protocol'] },
    ),
    [LB_INGRESS]: struct('An ingress point of a load balancer.', {
      hostname: str('The DNS name of the ingress point.'),
      ip: str('The IP address of the ingress point.'),
      ports: atomicList(ref(PORT_STATUS, undefined, { default: {} }), 'The ports of the ingress point.'),
    }),
    [LB_STATUS]: struct('The state of a load balancer.', {
      ingress: atomicList(ref(LB_INGRESS, undefined, { default: {} }), 'The ingress points.'),
    }),
    [STATUS]: struct('The observed state of an Ingress.', {
      loadBalancer: ref(LB_STATUS, 'The state of the load balancer.', { default: {} }),
    }),
    [INGRESS]: struct('Rules that route inbound connections to backends.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'The desired routing.', { default: {} }),
      status: ref(STATUS, 'The observed state.', { default: {} }),
    }),
    [INGRESS_LIST]: struct(
      'A list of Ingresses.',
      {
        apiVersion,
        items: arrayOf(ref(INGRESS, undefined, { default: {} }), 'The Ingresses.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [ingressKind, ingressListKind],
  goTypes: { [HTTP_PATH]: { pathType: 'v1.PathType' } },
  // k8s.io/api/networking/v1 generated.proto.
  protobuf: {
    [INGRESS]: { metadata: 1, spec: 2, status: 3 },
    [INGRESS_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { ingressClassName: pointer(4), defaultBackend: pointer(1), tls: 2, rules: 3 },
    [BACKEND]: { service: pointer(4), resource: pointer(3) },
    [SERVICE_BACKEND]: { name: 1, port: 2 },
    [BACKEND_PORT]: { name: 1, number: 2 },
    // The rule's value is a Go embedded struct: its own message on the wire, inline in JSON.
    [RULE]: { host: 1, IngressRuleValue: { field: 2, inline: RULE_VALUE } },
    [RULE_VALUE]: { http: pointer(1) },
    [HTTP_RULE]: { paths: 1 },
    [HTTP_PATH]: { path: 1, pathType: pointer(3), backend: 2 },
    [TLS]: { hosts: 1, secretName: 2 },
    [STATUS]: { loadBalancer: 1 },
    [LB_STATUS]: { ingress: 1 },
    [LB_INGRESS]: { ip: 1, hostname: 2, ports: 4 },
    [PORT_STATUS]: { port: 1, protocol: 2, error: pointer(3) },
  },
};
