// networking.k8s.io/v1 ServiceCIDR(+List) (k8s.io/api/networking/v1/types.go, GA in 1.33).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { Condition } from '../../core/v1/service.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind, metaV1 } from '../../schema/api-module.js';
import { arrayOf, atomicList, mapList, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { networkingV1, networkingV1Def } from './ingress.js';

export interface ServiceCIDR extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'ServiceCIDR';
  metadata?: ObjectMeta;
  spec?: { cidrs?: string[] };
  status?: { conditions?: Condition[] };
}

export interface ServiceCIDRList extends KubeObject {
  metadata?: ListMeta;
  items: ServiceCIDR[];
}

/** The condition a ServiceCIDR reports when it can allocate (networkingv1.ServiceCIDRConditionReady). */
export const serviceCIDRConditionReady = 'Ready';

const SERVICE_CIDR = networkingV1Def('ServiceCIDR');
const SERVICE_CIDR_LIST = networkingV1Def('ServiceCIDRList');
const SPEC = networkingV1Def('ServiceCIDRSpec');
const STATUS = networkingV1Def('ServiceCIDRStatus');
const CONDITION = metaV1('Condition');

export const serviceCIDRKind = groupKind(networkingV1, 'ServiceCIDR', SERVICE_CIDR);
export const serviceCIDRListKind = groupKind(networkingV1, 'ServiceCIDRList', SERVICE_CIDR_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const serviceCIDRModule: APIModule = {
  definitions: {
    [SPEC]: struct('The CIDRs ClusterIPs of Services are allocated from.', {
      cidrs: atomicList(
        str(),
        'Up to two IP blocks in CIDR notation, one of each IP family, from which service cluster IPs are assigned.',
      ),
    }),
    [STATUS]: struct('The current state of the ServiceCIDR.', {
      conditions: mapList(ref(CONDITION, undefined, { default: {} }), 'type', 'The current conditions.'),
    }),
    [SERVICE_CIDR]: struct('A range of IP addresses in CIDR format from which ClusterIPs are allocated.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'The desired state of the ServiceCIDR.', { default: {} }),
      status: ref(STATUS, 'The current state of the ServiceCIDR.', { default: {} }),
    }),
    [SERVICE_CIDR_LIST]: struct(
      'A list of ServiceCIDRs.',
      {
        apiVersion,
        items: arrayOf(ref(SERVICE_CIDR, undefined, { default: {} }), 'The ServiceCIDRs.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [serviceCIDRKind, serviceCIDRListKind],
  // k8s.io/api/networking/v1 generated.proto.
  protobuf: {
    [SERVICE_CIDR]: { metadata: 1, spec: 2, status: 3 },
    [SERVICE_CIDR_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { cidrs: { field: 1, goName: 'CIDRs' } },
    [STATUS]: { conditions: 1 },
  },
};
