// scheduling.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { priorityClassModule } from './priority-class.js';

export const schedulingV1Modules: readonly APIModule[] = [priorityClassModule];
