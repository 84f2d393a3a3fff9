// apiregistration.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { apiServiceModule } from './api-service.js';

export const apiregistrationV1Modules: readonly APIModule[] = [apiServiceModule];
