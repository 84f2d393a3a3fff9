// The dynamic resource allocation parts of core/v1 pods: the claims a pod and its containers name,
// the claims generated for it, and the health of allocated devices (k8s.io/api core/v1 types.go).
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { arrayOf, ref, str, struct } from '../../schema/builders.js';

export interface PodResourceClaim {
  name?: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

export interface PodResourceClaimStatus {
  name?: string;
  resourceClaimName?: string;
}

export interface ResourceClaim {
  name?: string;
  request?: string;
}

export interface ResourceStatus {
  name?: string;
  resources?: ResourceHealth[];
}

export interface ResourceHealth {
  resourceID?: string;
  health?: string;
}

export const resourceClaimsModule: APIModule = {
  definitions: {
    [coreV1('PodResourceClaim')]: struct(
      'A ResourceClaim a pod refers to, by name or through a template.',
      { name: str(), resourceClaimName: str(), resourceClaimTemplateName: str() },
      { required: ['name'] },
    ),
    [coreV1('PodResourceClaimStatus')]: struct(
      'The ResourceClaim generated for a template claim of a pod.',
      { name: str(), resourceClaimName: str() },
      { required: ['name'] },
    ),
    [coreV1('ResourceClaim')]: struct(
      'A claim of the pod a container uses.',
      { name: str(), request: str() },
      { required: ['name'] },
    ),
    [coreV1('ResourceStatus')]: struct(
      'The health of the devices allocated for one resource.',
      {
        name: str(),
        resources: arrayOf(ref(coreV1('ResourceHealth')), undefined, {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['resourceID'],
        }),
      },
      { required: ['name'] },
    ),
    [coreV1('ResourceHealth')]: struct(
      'The health of one allocated device.',
      { health: str(), resourceID: str() },
      { required: ['resourceID'] },
    ),
  },
  protobuf: {
    [coreV1('PodResourceClaim')]: {
      name: 1,
      resourceClaimName: pointer(3),
      resourceClaimTemplateName: pointer(4),
    },
    [coreV1('PodResourceClaimStatus')]: { name: 1, resourceClaimName: pointer(2) },
    [coreV1('ResourceClaim')]: { name: 1, request: 2 },
    [coreV1('ResourceStatus')]: { name: 1, resources: 2 },
    [coreV1('ResourceHealth')]: { resourceID: 1, health: 2 },
  },
};
