// certificates.k8s.io/v1 CertificateSigningRequest(+List) (k8s.io/api/certificates/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, bytes, int32, mapOf, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';

export const certificatesV1 = { group: 'certificates.k8s.io', version: 'v1' } as const;
const def = apiDefinitions('certificates', 'v1');

/** The signers kube-controller-manager's csrsigning controller serves (k8s.io/api/certificates/v1). */
export const kubeAPIServerClientSignerName = 'kubernetes.io/kube-apiserver-client';
export const kubeletClientSignerName = 'kubernetes.io/kube-apiserver-client-kubelet';
export const kubeletServingSignerName = 'kubernetes.io/kubelet-serving';
export const legacyUnknownSignerName = 'kubernetes.io/legacy-unknown';

export const builtinSignerNames = [
  kubeletServingSignerName,
  kubeletClientSignerName,
  kubeAPIServerClientSignerName,
  legacyUnknownSignerName,
] as const;
export type BuiltinSignerName = (typeof builtinSignerNames)[number];

/** KeyUsage values kube accepts (pkg/apis/certificates/types.go). */
export const keyUsages = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
] as const;

export interface CertificateSigningRequestSpec {
  /** Base64 of the PEM-encoded PKCS#10 request. */
  request: string;
  signerName: string;
  expirationSeconds?: number;
  usages?: string[];
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface CertificateSigningRequestCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequestStatus {
  conditions?: CertificateSigningRequestCondition[];
  /** Base64 of the PEM-encoded issued certificate(s). */
  certificate?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  apiVersion?: 'certificates.k8s.io/v1';
  kind?: 'CertificateSigningRequest';
  metadata?: ObjectMeta;
  spec?: CertificateSigningRequestSpec;
  status?: CertificateSigningRequestStatus;
}

export interface CertificateSigningRequestList extends KubeObject {
  metadata?: ListMeta;
  items: CertificateSigningRequest[];
}

const CSR = def('CertificateSigningRequest');
const CSR_LIST = def('CertificateSigningRequestList');
const SPEC = def('CertificateSigningRequestSpec');
const STATUS = def('CertificateSigningRequestStatus');
const CONDITION = def('CertificateSigningRequestCondition');

export const certificateSigningRequestKind = groupKind(certificatesV1, 'CertificateSigningRequest', CSR);
export const certificateSigningRequestListKind = groupKind(
  certificatesV1,
  'CertificateSigningRequestList',
  CSR_LIST,
);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const certificateSigningRequestModule: APIModule = {
  definitions: {
    [CSR]: struct(
      'A request for a certificate from a signer, approved or denied, then issued or failed.',
      {
        apiVersion,
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(SPEC, 'The request, its signer and what the certificate may be used for.', {
          default: {},
        }),
        status: ref(STATUS, 'Approval conditions and the issued certificate.', { default: {} }),
      },
      { required: ['spec'] },
    ),
    [CSR_LIST]: struct(
      'A list of CertificateSigningRequests.',
      {
        apiVersion,
        items: arrayOf(ref(CSR, undefined, { default: {} }), 'The CertificateSigningRequests.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
    [SPEC]: struct(
      'What is requested, of whom, and by whom (the server fills in the requester).',
      {
        expirationSeconds: int32('The requested validity of the certificate, in seconds.'),
        extra: mapOf(atomicList(str(), 'Values.'), 'Extra attributes of the requesting user.'),
        groups: atomicList(str(), 'Groups of the requesting user.'),
        request: bytes('A PEM-encoded PKCS#10 certificate signing request.'),
        signerName: str('The signer asked to issue the certificate.', { default: '' }),
        uid: str('UID of the requesting user.'),
        usages: atomicList(str(), 'The key usages requested.'),
        username: str('Name of the requesting user.'),
      },
      { required: ['request', 'signerName'] },
    ),
    [STATUS]: struct('Whether the request is approved or denied, and the issued certificate.', {
      certificate: bytes('The issued certificate, PEM-encoded.'),
      conditions: arrayOf(ref(CONDITION, undefined, { default: {} }), 'Approved, Denied, Failed…', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    }),
    [CONDITION]: struct(
      'One condition of a request.',
      {
        lastTransitionTime: ref(TIME, 'When the condition last changed status.'),
        lastUpdateTime: ref(TIME, 'When the condition was last updated.'),
        message: str('Details for humans.'),
        reason: str('A brief reason.'),
        status: str('True, False or Unknown.', { default: '' }),
        type: str('Approved, Denied, Failed or another type.', { default: '' }),
      },
      { required: ['type', 'status'] },
    ),
  },
  kinds: [certificateSigningRequestKind, certificateSigningRequestListKind],
  goTypes: {
    [SPEC]: { usages: '[]v1.KeyUsage' },
    [CONDITION]: { type: 'v1.RequestConditionType', status: 'v1.ConditionStatus' },
  },
  // k8s.io/api/certificates/v1 generated.proto.
  protobuf: {
    [CSR]: { metadata: 1, spec: 2, status: 3 },
    [CSR_LIST]: { metadata: 1, items: 2 },
    [SPEC]: {
      request: 1,
      signerName: 7,
      expirationSeconds: pointer(8),
      usages: 5,
      username: 2,
      uid: 3,
      groups: 4,
      extra: { field: 6, codec: 'extraValue' },
    },
    [STATUS]: { conditions: 1, certificate: 2 },
    [CONDITION]: { type: 1, status: 6, reason: 2, message: 3, lastUpdateTime: 4, lastTransitionTime: 5 },
  },
};
