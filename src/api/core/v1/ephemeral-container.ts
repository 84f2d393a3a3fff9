// core/v1 EphemeralContainer: a container added to a running pod for troubleshooting
// (`kubectl debug`), through pods/<name>/ephemeralcontainers only.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { str, struct } from '../../schema/builders.js';
import type { Schema } from '../../schema/types.js';
import { CONTAINER, containerModule, type Container } from './container.js';

export interface EphemeralContainer extends Container {
  /** The container whose namespaces (process, IPC…) it shares. */
  targetContainerName?: string;
}

export const EPHEMERAL_CONTAINER = coreV1('EphemeralContainer');

// Go embeds EphemeralContainerCommon, which has Container's fields; the JSON is flat.
const containerProperties: Readonly<Record<string, Schema>> =
  containerModule.definitions[CONTAINER]?.properties ?? {};

export const ephemeralContainerModule: APIModule = {
  definitions: {
    [EPHEMERAL_CONTAINER]: struct(
      'A temporary container added to a running pod for user-initiated activities such as debugging.',
      {
        ...containerProperties,
        targetContainerName: str('The name of a container of the pod whose namespaces it targets.'),
      },
      { required: ['name'] },
    ),
  },
};
