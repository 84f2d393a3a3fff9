// batch/v1 kinds. Field numbers of the protobuf tables come from the `protobuf:"…,N,…"` struct tags
// of k8s.io/api/batch/v1/types.go.
import type { APIModule } from '../../schema/api-module.js';
import { cronJobModule } from './cron-job.js';
import { jobModule } from './job.js';

export const batchV1Modules: readonly APIModule[] = [jobModule, cronJobModule];
