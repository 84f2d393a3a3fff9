// core/v1 EphemeralContainer: a container added to a running pod for troubleshooting
// (`kubectl debug`), through pods/<name>/ephemeralcontainers only.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { isProtobufCodec, type ProtobufMessage } from '../../schema/protobuf.js';
import { str, struct } from '../../schema/builders.js';
import type { Schema } from '../../schema/types.js';
import { CONTAINER, containerModule, type Container } from './container.js';

export interface EphemeralContainer extends Container {
  /** The container whose namespaces (process, IPC…) it shares. */
  targetContainerName?: string;
}

export const EPHEMERAL_CONTAINER = coreV1('EphemeralContainer');
/** Go's embedded EphemeralContainerCommon: only EphemeralContainer's protobuf table names it. */
const COMMON = coreV1('EphemeralContainerCommon');

// Go embeds EphemeralContainerCommon, which has Container's fields; the JSON is flat. On the wire
// it is its own message (field 1), numbered as Container is.
const containerProperties: Readonly<Record<string, Schema>> =
  containerModule.definitions[CONTAINER]?.properties ?? {};
const containerTable = containerModule.protobuf?.[CONTAINER];
const commonTable: ProtobufMessage =
  containerTable === undefined || isProtobufCodec(containerTable) ? {} : containerTable;

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
    [COMMON]: struct('The fields an ephemeral container shares with Container.', containerProperties, {
      required: ['name'],
    }),
  },
  protobuf: {
    [EPHEMERAL_CONTAINER]: {
      EphemeralContainerCommon: { field: 1, inline: COMMON },
      targetContainerName: 2,
    },
    [COMMON]: commonTable,
  },
};
