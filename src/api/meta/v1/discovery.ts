// meta/v1 discovery documents: APIVersions, APIGroupList, APIGroup, APIResourceList, APIResource.
import type { TypeMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { metaV1 } from '../../schema/api-module.js';
import { arrayOf, atomicList, bool, ref, str, struct } from '../../schema/builders.js';

export const API_VERSIONS = metaV1('APIVersions');
export const API_GROUP_LIST = metaV1('APIGroupList');
export const API_GROUP = metaV1('APIGroup');
export const API_RESOURCE_LIST = metaV1('APIResourceList');
export const API_RESOURCE = metaV1('APIResource');
export const GROUP_VERSION_FOR_DISCOVERY = metaV1('GroupVersionForDiscovery');
export const SERVER_ADDRESS_BY_CLIENT_CIDR = metaV1('ServerAddressByClientCIDR');

export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIVersions extends TypeMeta {
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

export interface APIGroup extends TypeMeta {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion?: GroupVersionForDiscovery;
  serverAddressByClientCIDRs?: ServerAddressByClientCIDR[];
}

export interface APIGroupList extends TypeMeta {
  groups: APIGroup[];
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface APIResourceList extends TypeMeta {
  groupVersion: string;
  resources: APIResource[];
}

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const cidrs = atomicList(
  ref(SERVER_ADDRESS_BY_CLIENT_CIDR),
  'Addresses clients should use to reach the server, chosen by the client network.',
);

export const discoveryModule: APIModule = {
  definitions: {
    [API_VERSIONS]: struct(
      'The versions served under /api.',
      {
        apiVersion,
        kind,
        serverAddressByClientCIDRs: cidrs,
        versions: atomicList({ type: 'string' }, 'Served versions.'),
      },
      { required: ['versions', 'serverAddressByClientCIDRs'] },
    ),
    [API_GROUP_LIST]: struct(
      'The groups served under /apis.',
      { apiVersion, groups: atomicList(ref(API_GROUP), 'Served groups.'), kind },
      { required: ['groups'] },
    ),
    [API_GROUP]: struct(
      'A group, its versions and the version the server prefers.',
      {
        apiVersion,
        kind,
        name: str('Name of the group.'),
        preferredVersion: ref(GROUP_VERSION_FOR_DISCOVERY, 'Version clients should use.'),
        serverAddressByClientCIDRs: cidrs,
        versions: atomicList(ref(GROUP_VERSION_FOR_DISCOVERY), 'Served versions of the group.'),
      },
      { required: ['name', 'versions'] },
    ),
    [GROUP_VERSION_FOR_DISCOVERY]: struct(
      'A group/version pair of a served group.',
      {
        groupVersion: str('"group/version".'),
        version: str('The version alone.'),
      },
      { required: ['groupVersion', 'version'] },
    ),
    [SERVER_ADDRESS_BY_CLIENT_CIDR]: struct(
      'Which address clients in a network should use.',
      {
        clientCIDR: str('Network of the clients, in CIDR notation.'),
        serverAddress: str('Host or host:port the clients should use.'),
      },
      { required: ['clientCIDR', 'serverAddress'] },
    ),
    [API_RESOURCE_LIST]: struct(
      'The resources of one group/version and what can be done with them.',
      {
        apiVersion,
        groupVersion: str('The group/version of the resources.'),
        kind,
        resources: atomicList(ref(API_RESOURCE), 'Served resources.'),
      },
      { required: ['groupVersion', 'resources'] },
    ),
    [API_RESOURCE]: struct(
      'One served resource.',
      {
        categories: atomicList({ type: 'string' }, 'Groupings the resource belongs to, like "all".'),
        group: str('Group of the kind, when it differs from the list (subresources).'),
        kind: str('Kind of the resource objects.'),
        name: str('Plural name of the resource.'),
        namespaced: bool('Whether objects live in namespaces.'),
        shortNames: atomicList({ type: 'string' }, 'Abbreviations clients accept.'),
        singularName: str('Singular name of the resource.'),
        storageVersionHash: str('Hash of the storage version, for clients that detect migrations.'),
        verbs: arrayOf({ type: 'string' }, 'Verbs the resource supports.'),
        version: str('Version of the kind, when it differs from the list (subresources).'),
      },
      { required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'] },
    ),
  },
  kinds: [
    { group: '', version: 'v1', kind: 'APIVersions', definition: API_VERSIONS },
    { group: '', version: 'v1', kind: 'APIGroupList', definition: API_GROUP_LIST },
    { group: '', version: 'v1', kind: 'APIGroup', definition: API_GROUP },
    { group: '', version: 'v1', kind: 'APIResourceList', definition: API_RESOURCE_LIST },
  ],
  goTypes: { [API_RESOURCE]: { verbs: 'v1.Verbs' } },
};
