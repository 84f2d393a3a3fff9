// core/v1 kinds. Adding a kind: write its file beside these and list its module here. Give the
// module a `protobuf` table for the kind and every struct it references (field numbers from the
// `protobuf:"…,N,…"` struct tags of k8s.io/api/core/v1/types.go, `pointer(N)` for Go pointers):
// kubectl and client-go send built-in kinds as protobuf.
import type { APIModule } from '../../schema/api-module.js';
import { bindingModule } from './binding.js';
import { configMapModule } from './config-map.js';
import { endpointsModule } from './endpoints.js';
import { containerModule } from './container.js';
import { eventModule } from './event.js';
import { namespaceModule } from './namespace.js';
import { nodeModule } from './node.js';
import { objectReferenceModule } from './object-reference.js';
import { podStatusModule } from './pod-status.js';
import { podModule } from './pod.js';
import { secretModule } from './secret.js';
import { serviceAccountModule } from './service-account.js';
import { volumeModule } from './volume.js';

export const coreV1Modules: readonly APIModule[] = [
  configMapModule,
  secretModule,
  namespaceModule,
  objectReferenceModule,
  eventModule,
  serviceAccountModule,
  endpointsModule,
  containerModule,
  volumeModule,
  podStatusModule,
  podModule,
  bindingModule,
  nodeModule,
];
