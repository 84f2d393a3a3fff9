// networking.k8s.io/v1 IPAddress(+List) (k8s.io/api/networking/v1/types.go, GA in 1.33).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { networkingV1, networkingV1Def } from './ingress.js';

export interface ParentReference {
  group?: string;
  resource: string;
  namespace?: string;
  name: string;
}

export interface IPAddress extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'IPAddress';
  metadata?: ObjectMeta;
  spec?: { parentRef?: ParentReference };
}

export interface IPAddressList extends KubeObject {
  metadata?: ListMeta;
  items: IPAddress[];
}

const IP_ADDRESS = networkingV1Def('IPAddress');
const IP_ADDRESS_LIST = networkingV1Def('IPAddressList');
const SPEC = networkingV1Def('IPAddressSpec');
const PARENT_REFERENCE = networkingV1Def('ParentReference');

export const ipAddressKind = groupKind(networkingV1, 'IPAddress', IP_ADDRESS);
export const ipAddressListKind = groupKind(networkingV1, 'IPAddressList', IP_ADDRESS_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const ipAddressModule: APIModule = {
  definitions: {
    [PARENT_REFERENCE]: struct(
      'The object an IP address is allocated to.',
      {
        group: str('The group of the referent.'),
        name: str('The name of the referent.', { default: '' }),
        namespace: str('The namespace of the referent.'),
        resource: str('The resource of the referent.', { default: '' }),
      },
      { required: ['resource', 'name'] },
    ),
    [SPEC]: struct(
      'The attributes of the IP address.',
      { parentRef: ref(PARENT_REFERENCE, 'The object this IP address is allocated to.') },
      { required: ['parentRef'] },
    ),
    [IP_ADDRESS]: struct('A single IP address of one IP family, named after the address.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'The attributes of the IP address.', { default: {} }),
    }),
    [IP_ADDRESS_LIST]: struct(
      'A list of IPAddresses.',
      {
        apiVersion,
        items: arrayOf(ref(IP_ADDRESS, undefined, { default: {} }), 'The IPAddresses.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [ipAddressKind, ipAddressListKind],
  // k8s.io/api/networking/v1 generated.proto.
  protobuf: {
    [IP_ADDRESS]: { metadata: 1, spec: 2 },
    [IP_ADDRESS_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { parentRef: pointer(1) },
    [PARENT_REFERENCE]: { group: 1, resource: 2, namespace: 3, name: 4 },
  },
};
