// apiregistration.k8s.io/v1 APIService(+List) (k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, bool, bytes, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';

export const apiregistrationV1 = { group: 'apiregistration.k8s.io', version: 'v1' } as const;
const def = (name: string): string => `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.${name}`;

export interface APIServiceServiceReference {
  namespace?: string;
  name?: string;
  /** 443 when not given (defaulted). */
  port?: number;
}

export interface APIServiceSpec {
  /**
   * null or absent: the group version is served by this server (a local APIService). Stored and
   * served without it, as kube writes a nil pointer tagged omitempty.
   */
  service?: APIServiceServiceReference | null;
  group?: string;
  version?: string;
  insecureSkipTLSVerify?: boolean;
  /** Base64 of a PEM CA bundle. */
  caBundle?: string;
  groupPriorityMinimum: number;
  versionPriority: number;
}

export const apiServiceConditionStatuses = ['True', 'False', 'Unknown'] as const;
export type APIServiceConditionStatus = (typeof apiServiceConditionStatuses)[number];

export interface APIServiceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface APIServiceStatus {
  conditions?: APIServiceCondition[];
}

export interface APIService extends KubeObject {
  apiVersion?: 'apiregistration.k8s.io/v1';
  kind?: 'APIService';
  metadata?: ObjectMeta;
  spec: APIServiceSpec;
  status?: APIServiceStatus;
}

export interface APIServiceList extends KubeObject {
  metadata?: ListMeta;
  items: APIService[];
}

const API_SERVICE = def('APIService');
const API_SERVICE_LIST = def('APIServiceList');
const SPEC = def('APIServiceSpec');
const STATUS = def('APIServiceStatus');
const CONDITION = def('APIServiceCondition');
const SERVICE_REFERENCE = def('ServiceReference');

export const apiServiceKind = groupKind(apiregistrationV1, 'APIService', API_SERVICE);
export const apiServiceListKind = groupKind(apiregistrationV1, 'APIServiceList', API_SERVICE_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const apiServiceModule: APIModule = {
  definitions: {
    [API_SERVICE]: struct('A server for one group version; its name is "version.group".', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'Where the server is and how to reach it.', { default: {} }),
      status: ref(STATUS, 'What is known of the server.', { default: {} }),
    }),
    [API_SERVICE_LIST]: struct(
      'A list of APIServices.',
      {
        apiVersion,
        items: arrayOf(ref(API_SERVICE, undefined, { default: {} }), 'The APIServices.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
    [SPEC]: struct(
      'Where an API server is and how to reach it; only HTTPS.',
      {
        caBundle: bytes('A PEM CA bundle that verifies the server’s certificate.'),
        group: str('The API group the server hosts.'),
        groupPriorityMinimum: int32('The least priority of the group; higher comes first.', { default: 0 }),
        insecureSkipTLSVerify: bool('Turns off verification of the server’s certificate (discouraged).'),
        service: ref(SERVICE_REFERENCE, 'The Service in front of the server; null when served locally.'),
        version: str('The API version the server hosts.'),
        versionPriority: int32('The order of the version inside its group; higher comes first.', {
          default: 0,
        }),
      },
      { required: ['groupPriorityMinimum', 'versionPriority'] },
    ),
    [STATUS]: struct('What is known of the server.', {
      conditions: arrayOf(ref(CONDITION, undefined, { default: {} }), 'The service state.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      }),
    }),
    [CONDITION]: struct(
      'The state of an APIService at one point.',
      {
        lastTransitionTime: ref(TIME, 'When the condition last changed status.'),
        message: str('Details for humans.'),
        reason: str('A one-word CamelCase reason.'),
        status: str('True, False or Unknown.', { default: '' }),
        type: str('The condition type (Available).', { default: '' }),
      },
      { required: ['type', 'status'] },
    ),
    [SERVICE_REFERENCE]: struct('A reference to a Service.', {
      name: str('The name of the service.'),
      namespace: str('The namespace of the service.'),
      port: int32('The service port the server listens on (443 when not given).'),
    }),
  },
  kinds: [apiServiceKind, apiServiceListKind],
  goTypes: {
    [CONDITION]: { type: 'v1.APIServiceConditionType', status: 'v1.ConditionStatus' },
  },
  // k8s.io/kube-aggregator/pkg/apis/apiregistration/v1 generated.proto (field 6 is retired).
  protobuf: {
    [API_SERVICE]: { metadata: 1, spec: 2, status: 3 },
    [API_SERVICE_LIST]: { metadata: 1, items: 2 },
    [SPEC]: {
      service: pointer(1),
      group: 2,
      version: 3,
      insecureSkipTLSVerify: 4,
      caBundle: 5,
      groupPriorityMinimum: 7,
      versionPriority: 8,
    },
    [STATUS]: { conditions: 1 },
    [CONDITION]: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
    [SERVICE_REFERENCE]: { namespace: 1, name: 2, port: pointer(3) },
  },
};
