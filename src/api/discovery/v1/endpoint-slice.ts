// discovery.k8s.io/v1 EndpointSlice(+List) (k8s.io/api/discovery/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, bool, int32, ref, str, stringMap, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { OBJECT_REFERENCE } from '../../core/v1/object-reference.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export const discoveryV1 = { group: 'discovery.k8s.io', version: 'v1' } as const;
export const discoveryV1Def = apiDefinitions('discovery', 'v1');

export const addressTypes = ['FQDN', 'IPv4', 'IPv6'] as const;

/** The label naming the Service a slice belongs to (discovery.LabelServiceName). */
export const labelServiceName = 'kubernetes.io/service-name';

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface Endpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: Record<string, unknown>;
  deprecatedTopology?: Record<string, string>;
  nodeName?: string;
  zone?: string;
  hints?: { forZones?: { name: string }[]; forNodes?: { name: string }[] };
}

export interface EndpointSlicePort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  apiVersion?: 'discovery.k8s.io/v1';
  kind?: 'EndpointSlice';
  metadata?: ObjectMeta;
  addressType: string;
  /** Absent (nil) when a client sent none: kube writes `"endpoints":null`. */
  endpoints?: Endpoint[];
  ports?: EndpointSlicePort[];
}

export interface EndpointSliceList extends KubeObject {
  metadata?: ListMeta;
  items: EndpointSlice[];
}

const SLICE = discoveryV1Def('EndpointSlice');
const SLICE_LIST = discoveryV1Def('EndpointSliceList');
const ENDPOINT = discoveryV1Def('Endpoint');
const CONDITIONS = discoveryV1Def('EndpointConditions');
const HINTS = discoveryV1Def('EndpointHints');
const FOR_ZONE = discoveryV1Def('ForZone');
const FOR_NODE = discoveryV1Def('ForNode');
const PORT = discoveryV1Def('EndpointPort');

export const endpointSliceKind = groupKind(discoveryV1, 'EndpointSlice', SLICE);
export const endpointSliceListKind = groupKind(discoveryV1, 'EndpointSliceList', SLICE_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const named = (description: string) =>
  struct(description, { name: str('The name.', { default: '' }) }, { required: ['name'] });

export const endpointSliceModule: APIModule = {
  definitions: {
    [CONDITIONS]: struct('The state of an endpoint.', {
      ready: bool('Whether the endpoint is ready for traffic.'),
      serving: bool('Whether the endpoint can serve, even while terminating.'),
      terminating: bool('Whether the endpoint is terminating.'),
    }),
    [FOR_ZONE]: named('A zone an endpoint should serve.'),
    [FOR_NODE]: named('A node an endpoint should serve.'),
    [HINTS]: struct('How the endpoint should be consumed.', {
      forNodes: atomicList(ref(FOR_NODE, undefined, { default: {} }), 'Nodes the endpoint should serve.'),
      forZones: atomicList(ref(FOR_ZONE, undefined, { default: {} }), 'Zones the endpoint should serve.'),
    }),
    [ENDPOINT]: struct(
      'One backend of a Service.',
      {
        addresses: {
          ...atomicList(str(undefined, { default: '' }), 'The addresses of the endpoint.'),
          'x-kubernetes-list-type': 'set',
        },
        conditions: ref(CONDITIONS, 'The state of the endpoint.', { default: {} }),
        deprecatedTopology: stringMap('Topology labels (deprecated, use zone and nodeName).'),
        hints: ref(HINTS, 'How the endpoint should be consumed.'),
        hostname: str('The hostname of the endpoint.'),
        nodeName: str('The node hosting the endpoint.'),
        targetRef: ref(OBJECT_REFERENCE, 'The object the endpoint stands for.'),
        zone: str('The zone of the endpoint.'),
      },
      { required: ['addresses'] },
    ),
    [PORT]: struct(
      'A port of the endpoints.',
      {
        appProtocol: str('The application protocol of the port.'),
        name: str('The name of the port.'),
        port: int32('The port number.'),
        protocol: str('TCP, UDP or SCTP; TCP when unset.', { default: 'TCP' }),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [SLICE]: struct(
      'A subset of the endpoints of a Service.',
      {
        addressType: str('IPv4, IPv6 or FQDN.', { enum: [...addressTypes], default: '' }),
        apiVersion,
        endpoints: atomicList(ref(ENDPOINT, undefined, { default: {} }), 'The endpoints.'),
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        ports: atomicList(ref(PORT, undefined, { default: {} }), 'The ports every endpoint exposes.'),
      },
      { required: ['addressType', 'endpoints'] },
    ),
    [SLICE_LIST]: struct(
      'A list of EndpointSlices.',
      {
        apiVersion,
        items: arrayOf(ref(SLICE, undefined, { default: {} }), 'The EndpointSlices.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [endpointSliceKind, endpointSliceListKind],
  goTypes: { [SLICE]: { addressType: 'v1.AddressType' }, [PORT]: { protocol: 'v1.Protocol' } },
  // k8s.io/api/discovery/v1 generated.proto.
  protobuf: {
    [SLICE]: { metadata: 1, addressType: 4, endpoints: 2, ports: 3 },
    [SLICE_LIST]: { metadata: 1, items: 2 },
    [ENDPOINT]: {
      addresses: 1,
      conditions: 2,
      hostname: pointer(3),
      targetRef: pointer(4),
      deprecatedTopology: 5,
      nodeName: pointer(6),
      zone: pointer(7),
      hints: pointer(8),
    },
    [CONDITIONS]: { ready: pointer(1), serving: pointer(2), terminating: pointer(3) },
    [HINTS]: { forZones: 1, forNodes: 2 },
    [FOR_ZONE]: { name: 1 },
    [FOR_NODE]: { name: 1 },
    [PORT]: { name: pointer(1), protocol: pointer(2), port: pointer(3), appProtocol: pointer(4) },
  },
};
