// flowcontrol.apiserver.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { flowSchemaModule } from './flow-schema.js';
import { priorityLevelConfigurationModule } from './priority-level-configuration.js';

export const flowcontrolV1Modules: readonly APIModule[] = [
  flowSchemaModule,
  priorityLevelConfigurationModule,
];
