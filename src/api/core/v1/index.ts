// core/v1 kinds. Adding a kind: write its file beside these and list its module here. Give the
// module a `protobuf` table for the kind and every struct it references (field numbers from the
// `protobuf:"…,N,…"` struct tags of k8s.io/api/core/v1/types.go, `pointer(N)` for Go pointers):
// kubectl and client-go send built-in kinds as protobuf.
import type { APIModule } from '../../schema/api-module.js';
import { bindingModule } from './binding.js';
import { configMapModule } from './config-map.js';
import { endpointsModule } from './endpoints.js';
import { ephemeralContainerModule } from './ephemeral-container.js';
import { containerModule } from './container.js';
import { probeModule } from './probe.js';
import { eventModule } from './event.js';
import { namespaceModule } from './namespace.js';
import { nodeModule } from './node.js';
import { objectReferenceModule } from './object-reference.js';
import { componentStatusModule } from './component-status.js';
import { persistentVolumeClaimModule } from './persistent-volume-claim.js';
import { persistentVolumeModule } from './persistent-volume.js';
import { podStatusModule } from './pod-status.js';
import { podModule } from './pod.js';
import { podSpecPartsModule } from './pod-spec-parts.js';
import { securityOptionsModule } from './security-options.js';
import { secretModule } from './secret.js';
import { serviceAccountModule } from './service-account.js';
import { serviceModule } from './service.js';
import { volumeModule } from './volume.js';
import { inTreeVolumeSourcesModule } from './in-tree-volume-sources-schema.js';
import { volumeSourcesModule } from './volume-sources-schema.js';
import { affinityModule } from './affinity.js';
import { containerPartsModule } from './container-parts.js';
import { resourceClaimsModule } from './resource-claims.js';
import { limitRangeModule } from './limit-range.js';
import { podTemplateModule } from './pod-template.js';
import { replicationControllerModule } from './replication-controller.js';
import { resourceQuotaModule } from './resource-quota.js';

export const coreV1Modules: readonly APIModule[] = [
  configMapModule,
  secretModule,
  namespaceModule,
  objectReferenceModule,
  eventModule,
  serviceAccountModule,
  endpointsModule,
  containerModule,
  probeModule,
  ephemeralContainerModule,
  volumeModule,
  volumeSourcesModule,
  inTreeVolumeSourcesModule,
  affinityModule,
  containerPartsModule,
  resourceClaimsModule,
  podStatusModule,
  podModule,
  podSpecPartsModule,
  securityOptionsModule,
  bindingModule,
  nodeModule,
  persistentVolumeModule,
  persistentVolumeClaimModule,
  componentStatusModule,
  serviceModule,
  podTemplateModule,
  replicationControllerModule,
  limitRangeModule,
  resourceQuotaModule,
];
