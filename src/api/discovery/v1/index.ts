// discovery.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { endpointSliceModule } from './endpoint-slice.js';

export const discoveryV1Modules: readonly APIModule[] = [endpointSliceModule];
