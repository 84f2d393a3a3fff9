// admissionregistration.k8s.io/v1: webhook configurations and validating admission policies.
import type { APIModule } from '../../schema/api-module.js';
import { policyModule } from './policy.js';
import { webhookModule } from './webhook.js';

export const admissionregistrationV1Modules: readonly APIModule[] = [webhookModule, policyModule];
