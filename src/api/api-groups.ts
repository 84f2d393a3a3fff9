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
import { admissionregistrationV1GoOmitEmptyModule } from './admissionregistration/v1/go-omit-empty.js';
import { appsV1GoOmitEmptyModule } from './apps/v1/go-omit-empty.js';
import { authenticationV1GoOmitEmptyModule } from './authentication/v1/go-omit-empty.js';
import { authorizationV1GoOmitEmptyModule } from './authorization/v1/go-omit-empty.js';
import { autoscalingV1GoOmitEmptyModule } from './autoscaling/v1/go-omit-empty.js';
import { autoscalingV2GoOmitEmptyModule } from './autoscaling/v2/go-omit-empty.js';
import { batchV1GoOmitEmptyModule } from './batch/v1/go-omit-empty.js';
import { certificatesV1GoOmitEmptyModule } from './certificates/v1/go-omit-empty.js';
import { coordinationV1GoOmitEmptyModule } from './coordination/v1/go-omit-empty.js';
import { coreV1GoOmitEmptyModule } from './core/v1/go-omit-empty.js';
import { discoveryV1GoOmitEmptyModule } from './discovery/v1/go-omit-empty.js';
import { eventsV1GoOmitEmptyModule } from './events/v1/go-omit-empty.js';
import { flowcontrolV1GoOmitEmptyModule } from './flowcontrol/v1/go-omit-empty.js';
import { networkingV1GoOmitEmptyModule } from './networking/v1/go-omit-empty.js';
import { nodeV1GoOmitEmptyModule } from './node/v1/go-omit-empty.js';
import { policyV1GoOmitEmptyModule } from './policy/v1/go-omit-empty.js';
import { rbacV1GoOmitEmptyModule } from './rbac/v1/go-omit-empty.js';
import { schedulingV1GoOmitEmptyModule } from './scheduling/v1/go-omit-empty.js';
import { storageV1GoOmitEmptyModule } from './storage/v1/go-omit-empty.js';
import { apiextensionsV1GoOmitEmptyModule } from './apiextensions/v1/go-omit-empty.js';
import { apiregistrationV1GoOmitEmptyModule } from './apiregistration/v1/go-omit-empty.js';

export interface BuiltinGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly modules: readonly APIModule[];
}

export const builtinGroupVersions: readonly BuiltinGroupVersion[] = [
  { group: '', version: 'v1', modules: [...coreV1Modules, coreV1GoOmitEmptyModule] },
  { group: 'apps', version: 'v1', modules: [...appsV1Modules, appsV1GoOmitEmptyModule] },
  {
    group: 'authentication.k8s.io',
    version: 'v1',
    modules: [...authenticationV1Modules, authenticationV1GoOmitEmptyModule],
  },
  { group: 'autoscaling', version: 'v2', modules: [...autoscalingV2Modules, autoscalingV2GoOmitEmptyModule] },
  // HorizontalPodAutoscalers, and Scale for the scale subresource of replicated resources.
  { group: 'autoscaling', version: 'v1', modules: [...autoscalingV1Modules, autoscalingV1GoOmitEmptyModule] },
  {
    group: 'certificates.k8s.io',
    version: 'v1',
    modules: [...certificatesV1Modules, certificatesV1GoOmitEmptyModule],
  },
  { group: 'batch', version: 'v1', modules: [...batchV1Modules, batchV1GoOmitEmptyModule] },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    modules: [...networkingV1Modules, networkingV1GoOmitEmptyModule],
  },
  { group: 'policy', version: 'v1', modules: [...policyV1Modules, policyV1GoOmitEmptyModule] },
  {
    group: 'scheduling.k8s.io',
    version: 'v1',
    modules: [...schedulingV1Modules, schedulingV1GoOmitEmptyModule],
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    modules: [...coordinationV1Modules, coordinationV1GoOmitEmptyModule],
  },
  { group: 'node.k8s.io', version: 'v1', modules: [...nodeV1Modules, nodeV1GoOmitEmptyModule] },
  {
    group: 'discovery.k8s.io',
    version: 'v1',
    modules: [...discoveryV1Modules, discoveryV1GoOmitEmptyModule],
  },
  { group: 'storage.k8s.io', version: 'v1', modules: [...storageV1Modules, storageV1GoOmitEmptyModule] },
  { group: 'rbac.authorization.k8s.io', version: 'v1', modules: [...rbacV1Modules, rbacV1GoOmitEmptyModule] },
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    modules: [...authorizationV1Modules, authorizationV1GoOmitEmptyModule],
  },
  { group: 'events.k8s.io', version: 'v1', modules: [...eventsV1Modules, eventsV1GoOmitEmptyModule] },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    modules: [...admissionregistrationV1Modules, admissionregistrationV1GoOmitEmptyModule],
  },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    modules: [...apiextensionsV1Modules, apiextensionsV1GoOmitEmptyModule],
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    modules: [...flowcontrolV1Modules, flowcontrolV1GoOmitEmptyModule],
  },
  {
    group: 'apiregistration.k8s.io',
    version: 'v1',
    modules: [...apiregistrationV1Modules, apiregistrationV1GoOmitEmptyModule],
  },
];
