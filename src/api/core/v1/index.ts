// core/v1 kinds. Adding a kind: write its file beside these and list its module here.
import type { APIModule } from '../../schema/api-module.js';
import { configMapModule } from './config-map.js';
import { namespaceModule } from './namespace.js';
import { secretModule } from './secret.js';

export const coreV1Modules: readonly APIModule[] = [configMapModule, secretModule, namespaceModule];
