// coordination.k8s.io/v1 Lease(+List) (k8s.io/api/coordination/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import { arrayOf, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { MICRO_TIME, OBJECT_META } from '../../meta/v1/object-meta.js';

export const coordinationV1 = { group: 'coordination.k8s.io', version: 'v1' } as const;
export const coordinationV1Def = apiDefinitions('coordination', 'v1');

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease extends KubeObject {
  apiVersion?: 'coordination.k8s.io/v1';
  kind?: 'Lease';
  metadata?: ObjectMeta;
  spec?: LeaseSpec;
}

export interface LeaseList extends KubeObject {
  metadata?: ListMeta;
  items: Lease[];
}

const LEASE = coordinationV1Def('Lease');
const LEASE_LIST = coordinationV1Def('LeaseList');
const LEASE_SPEC = coordinationV1Def('LeaseSpec');

export const leaseKind = groupKind(coordinationV1, 'Lease', LEASE);
export const leaseListKind = groupKind(coordinationV1, 'LeaseList', LEASE_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const leaseModule: APIModule = {
  definitions: {
    [LEASE_SPEC]: struct('The specification of a Lease.', {
      acquireTime: ref(MICRO_TIME, 'When the current lease was acquired.'),
      holderIdentity: str('The identity of the current holder of the lease.'),
      leaseDurationSeconds: int32('How long candidates wait, after the last renewal, to force acquire it.'),
      leaseTransitions: int32('How many times the lease changed holders.'),
      preferredHolder: str('A holder the current one should give the lease up to.'),
      renewTime: ref(MICRO_TIME, 'When the current holder last renewed the lease.'),
      strategy: str('How the leader is picked in coordinated leader election.'),
    }),
    [LEASE]: struct('A lease.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(LEASE_SPEC, 'The specification of the Lease.', { default: {} }),
    }),
    [LEASE_LIST]: struct(
      'A list of Leases.',
      {
        apiVersion,
        items: arrayOf(ref(LEASE, undefined, { default: {} }), 'The Leases.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [leaseKind, leaseListKind],
  // k8s.io/api/coordination/v1 generated.proto.
  protobuf: {
    [LEASE]: { metadata: 1, spec: 2 },
    [LEASE_LIST]: { metadata: 1, items: 2 },
    [LEASE_SPEC]: {
      holderIdentity: pointer(1),
      leaseDurationSeconds: pointer(2),
      acquireTime: pointer(3),
      renewTime: pointer(4),
      leaseTransitions: pointer(5),
      strategy: pointer(6),
      preferredHolder: pointer(7),
    },
  },
};
