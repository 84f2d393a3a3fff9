// core/v1 kinds. Adding a kind: write its file beside these and list its module here. Give the
// module a `protobuf` table for the kind and every struct it references (field numbers from the
// `protobuf:"…,N,…"` struct tags of k8s.io/api/core/v1/types.go, `pointer(N)` for Go pointers):
// kubectl and client-go send built-in kinds as protobuf.
import type { APIModule } from '../../schema/api-module.js';
import { configMapModule } from './config-map.js';
import { namespaceModule } from './namespace.js';
import { secretModule } from './secret.js';

export const coreV1Modules: readonly APIModule[] = [configMapModule, secretModule, namespaceModule];
