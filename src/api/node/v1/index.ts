// node.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { runtimeClassModule } from './runtime-class.js';

export const nodeV1Modules: readonly APIModule[] = [runtimeClassModule];
