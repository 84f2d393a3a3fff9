// policy/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { evictionModule } from './eviction.js';
import { podDisruptionBudgetModule } from './pod-disruption-budget.js';

export const policyV1Modules: readonly APIModule[] = [podDisruptionBudgetModule, evictionModule];
