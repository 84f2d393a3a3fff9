// coordination.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { leaseModule } from './lease.js';

export const coordinationV1Modules: readonly APIModule[] = [leaseModule];
