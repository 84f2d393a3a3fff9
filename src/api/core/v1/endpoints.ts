// core/v1 Endpoints(+List), EndpointSubset, EndpointAddress, EndpointPort.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, atomicList, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { OBJECT_REFERENCE, type ObjectReference } from './object-reference.js';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Endpoints';
  metadata?: ObjectMeta;
  subsets?: EndpointSubset[];
}

export interface EndpointsList extends KubeObject {
  metadata?: ListMeta;
  items: Endpoints[];
}

export const endpointsKind = coreV1Kind('Endpoints');
export const endpointsListKind = coreV1Kind('EndpointsList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const SUBSET = coreV1('EndpointSubset');
const ADDRESS = coreV1('EndpointAddress');
const PORT = coreV1('EndpointPort');

export const endpointsModule: APIModule = {
  definitions: {
    [coreV1('Endpoints')]: struct('The addresses and ports that implement a service.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      subsets: atomicList(ref(SUBSET), 'Groups of addresses sharing the same ports.'),
    }),
    [SUBSET]: struct('Addresses that all serve the same ports.', {
      addresses: atomicList(ref(ADDRESS), 'Addresses ready to serve.'),
      notReadyAddresses: atomicList(ref(ADDRESS), 'Addresses not yet ready to serve.'),
      ports: atomicList(ref(PORT), 'The ports every address serves.'),
    }),
    [ADDRESS]: struct(
      'One address of an endpoint.',
      {
        hostname: str('Hostname of the endpoint.'),
        ip: str('IP address of the endpoint.', { default: '' }),
        nodeName: str('Node hosting the endpoint.'),
        targetRef: ref(OBJECT_REFERENCE, 'The object behind the endpoint.'),
      },
      { required: ['ip'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [PORT]: struct(
      'One port of an endpoint.',
      {
        appProtocol: str('Application protocol of the port.'),
        name: str('Name of the port, matching a service port name.'),
        port: int32('Port number.', { default: 0 }),
        protocol: str('TCP, UDP or SCTP.', { default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'] }),
      },
      { required: ['port'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [coreV1('EndpointsList')]: struct(
      'A list of Endpoints.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('Endpoints'), undefined, { default: {} }), 'The Endpoints.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [endpointsKind, endpointsListKind],
  goTypes: { [PORT]: { protocol: 'v1.Protocol' } },
  protobuf: {
    [coreV1('Endpoints')]: { metadata: 1, subsets: 2 },
    [SUBSET]: { addresses: 1, notReadyAddresses: 2, ports: 3 },
    [ADDRESS]: { ip: 1, hostname: 3, nodeName: pointer(4), targetRef: pointer(2) },
    [PORT]: { name: 1, port: 2, protocol: 3, appProtocol: pointer(4) },
    [coreV1('EndpointsList')]: { metadata: 1, items: 2 },
  },
};
