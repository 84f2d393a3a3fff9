// apps/v1 kinds. Field numbers of the protobuf tables come from the `protobuf:"…,N,…"` struct tags
// of k8s.io/api/apps/v1/types.go.
import type { APIModule } from '../../schema/api-module.js';
import { controllerRevisionModule } from './controller-revision.js';
import { daemonSetModule } from './daemon-set.js';
import { deploymentModule } from './deployment.js';
import { replicaSetModule } from './replica-set.js';
import { statefulSetModule } from './stateful-set.js';

export const appsV1Modules: readonly APIModule[] = [
  deploymentModule,
  replicaSetModule,
  statefulSetModule,
  daemonSetModule,
  controllerRevisionModule,
];
