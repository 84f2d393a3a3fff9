// Parts of core/v1 containers and their status that volume.ts and container.ts leave out: resize
// policies, raw block devices, the user a container runs as, the state of its mounts (k8s.io/api
// core/v1 types.go; field numbers from its `protobuf` tags).
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { atomicList, bool, int64, ref, str, struct } from '../../schema/builders.js';

export interface ContainerResizePolicy {
  resourceName?: string;
  restartPolicy?: string;
}

export interface VolumeDevice {
  name?: string;
  devicePath?: string;
}

export interface ContainerUser {
  linux?: LinuxContainerUser;
}

export interface LinuxContainerUser {
  uid?: number;
  gid?: number;
  supplementalGroups?: number[];
}

export interface VolumeMountStatus {
  name?: string;
  mountPath?: string;
  readOnly?: boolean;
  recursiveReadOnly?: string;
}

export const containerPartsModule: APIModule = {
  definitions: {
    [coreV1('ContainerResizePolicy')]: struct(
      'How a container reacts to a resize of one resource.',
      { resourceName: str(), restartPolicy: str() },
      { required: ['resourceName', 'restartPolicy'] },
    ),
    [coreV1('VolumeDevice')]: struct(
      'A raw block device mapped into a container.',
      { devicePath: str(), name: str() },
      { required: ['name', 'devicePath'] },
    ),
    [coreV1('ContainerUser')]: struct('The identity the first process runs as.', {
      linux: ref(coreV1('LinuxContainerUser')),
    }),
    [coreV1('LinuxContainerUser')]: struct(
      'The Linux identity the first process runs as.',
      { gid: int64(), supplementalGroups: atomicList({ type: 'integer', format: 'int64' }), uid: int64() },
      { required: ['uid', 'gid'] },
    ),
    [coreV1('VolumeMountStatus')]: struct(
      'The state of a volume mount.',
      { mountPath: str(), name: str(), readOnly: bool(), recursiveReadOnly: str() },
      { required: ['name', 'mountPath'] },
    ),
  },
  protobuf: {
    [coreV1('ContainerResizePolicy')]: { resourceName: 1, restartPolicy: 2 },
    [coreV1('VolumeDevice')]: { name: 1, devicePath: 2 },
    [coreV1('ContainerUser')]: { linux: pointer(1) },
    [coreV1('LinuxContainerUser')]: { uid: 1, gid: 2, supplementalGroups: 3 },
    [coreV1('VolumeMountStatus')]: { name: 1, mountPath: 2, readOnly: 3, recursiveReadOnly: pointer(4) },
  },
};
