// Every built-in group version whose kinds the server knows, with the API modules that define them.
// Adding a group version: write its modules under src/api/<group>/<version>/, export them as a list
// from that folder's index.ts and add an entry here. The scheme gets the group version's kinds, and
// WatchEvent and DeleteOptions under it, as kube's AddToGroupVersion does.
import type { APIModule } from './schema/api-module.js';
import { appsV1Modules } from './apps/v1/index.js';
import { authenticationV1Modules } from './authentication/v1/index.js';
import { autoscalingV1Modules } from './autoscaling/v1/index.js';
import { autoscalingV2Modules } from './autoscaling/v2/index.js';
import { certificatesV1Modules } from './certificates/v1/index.js';
import { coordinationV1Modules } from './coordination/v1/index.js';
import { batchV1Modules } from './batch/v1/index.js';
import { authorizationV1Modules } from './authorization/v1/reviews.js';
import { coreV1Modules } from './core/v1/index.js';
import { discoveryV1Modules } from './discovery/v1/index.js';
import { eventsV1Modules } from './events/v1/event.js';
import { networkingV1Modules } from './networking/v1/index.js';
import { nodeV1Modules } from './node/v1/index.js';
import { policyV1Modules } from './policy/v1/index.js';
import { schedulingV1Modules } from './scheduling/v1/index.js';
import { storageV1Modules } from './storage/v1/index.js';
import { rbacV1Modules } from './rbac/v1/rbac.js';
import { admissionregistrationV1Modules } from './admissionregistration/v1/index.js';
import { apiextensionsV1Modules } from './apiextensions/v1/index.js';
import { flowcontrolV1Modules } from './flowcontrol/v1/index.js';
import { apiregistrationV1Modules } from './apiregistration/v1/index.js';

export interface BuiltinGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly modules: readonly APIModule[];
}

export const builtinGroupVersions: readonly BuiltinGroupVersion[] = [
  { group: '', version: 'v1', modules: coreV1Modules },
  { group: 'apps', version: 'v1', modules: appsV1Modules },
  { group: 'authentication.k8s.io', version: 'v1', modules: authenticationV1Modules },
  { group: 'autoscaling', version: 'v2', modules: autoscalingV2Modules },
  // HorizontalPodAutoscalers, and Scale for the scale subresource of replicated resources.
  { group: 'autoscaling', version: 'v1', modules: autoscalingV1Modules },
  { group: 'certificates.k8s.io', version: 'v1', modules: certificatesV1Modules },
  { group: 'batch', version: 'v1', modules: batchV1Modules },
  { group: 'networking.k8s.io', version: 'v1', modules: networkingV1Modules },
  { group: 'policy', version: 'v1', modules: policyV1Modules },
  { group: 'scheduling.k8s.io', version: 'v1', modules: schedulingV1Modules },
  { group: 'coordination.k8s.io', version: 'v1', modules: coordinationV1Modules },
  { group: 'node.k8s.io', version: 'v1', modules: nodeV1Modules },
  { group: 'discovery.k8s.io', version: 'v1', modules: discoveryV1Modules },
  { group: 'storage.k8s.io', version: 'v1', modules: storageV1Modules },
  { group: 'rbac.authorization.k8s.io', version: 'v1', modules: rbacV1Modules },
  { group: 'authorization.k8s.io', version: 'v1', modules: authorizationV1Modules },
  { group: 'events.k8s.io', version: 'v1', modules: eventsV1Modules },
  { group: 'admissionregistration.k8s.io', version: 'v1', modules: admissionregistrationV1Modules },
  { group: 'apiextensions.k8s.io', version: 'v1', modules: apiextensionsV1Modules },
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', modules: flowcontrolV1Modules },
  { group: 'apiregistration.k8s.io', version: 'v1', modules: apiregistrationV1Modules },
];
