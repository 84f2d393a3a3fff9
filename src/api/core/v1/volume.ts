// core/v1 Volume with the commonly used sources: configMap, secret, emptyDir, persistentVolumeClaim,
// hostPath, projected. Go embeds VolumeSource in Volume (JSON flattens it); the protobuf table of
// Volume carries only its name, as the table format has no inline message.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { atomicList, bool, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface VolumeProjection {
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
}

export interface Volume {
  name: string;
  hostPath?: { path: string; type?: string };
  emptyDir?: { medium?: string; sizeLimit?: Quantity };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  projected?: { sources?: VolumeProjection[]; defaultMode?: number };
}

export const VOLUME = coreV1('Volume');
const HOST_PATH = coreV1('HostPathVolumeSource');
const EMPTY_DIR = coreV1('EmptyDirVolumeSource');
const SECRET = coreV1('SecretVolumeSource');
const PVC = coreV1('PersistentVolumeClaimVolumeSource');
const CONFIG_MAP = coreV1('ConfigMapVolumeSource');
const PROJECTED = coreV1('ProjectedVolumeSource');
const PROJECTION = coreV1('VolumeProjection');
const CM_PROJECTION = coreV1('ConfigMapProjection');
const SECRET_PROJECTION = coreV1('SecretProjection');
const SA_TOKEN = coreV1('ServiceAccountTokenProjection');
const KEY_TO_PATH = coreV1('KeyToPath');

/** Go's 0644, the default file mode of configMap, secret and projected volumes. */
const defaultMode = (): ReturnType<typeof int32> => int32('File mode bits of the files.', { default: 420 });
const items = (): ReturnType<typeof atomicList> => atomicList(ref(KEY_TO_PATH), 'Keys to project, with their paths.');

export const volumeModule: APIModule = {
  definitions: {
    [VOLUME]: struct(
      'A named volume of a pod.',
      {
        configMap: ref(CONFIG_MAP),
        emptyDir: ref(EMPTY_DIR),
        hostPath: ref(HOST_PATH),
        name: str('Name of the volume, a DNS label unique in the pod.'),
        persistentVolumeClaim: ref(PVC),
        projected: ref(PROJECTED),
        secret: ref(SECRET),
      },
      { required: ['name'] },
    ),
    [HOST_PATH]: struct('A directory of the host.', { path: str(), type: str(undefined, { default: '' }) }, { required: ['path'] }),
    [EMPTY_DIR]: struct('A temporary directory.', { medium: str(), sizeLimit: ref(QUANTITY) }),
    [SECRET]: struct('A Secret as files.', { defaultMode: defaultMode(), items: items(), optional: bool(), secretName: str() }),
    [PVC]: struct('A PersistentVolumeClaim.', { claimName: str(), readOnly: bool() }, { required: ['claimName'] }),
    [CONFIG_MAP]: struct('A ConfigMap as files.', { defaultMode: defaultMode(), items: items(), name: str(), optional: bool() }),
    [PROJECTED]: struct('Several sources in one directory.', {
      defaultMode: defaultMode(),
      sources: atomicList(ref(PROJECTION), 'The projected sources.'),
    }),
    [PROJECTION]: struct('One projected source.', {
      configMap: ref(CM_PROJECTION),
      secret: ref(SECRET_PROJECTION),
      serviceAccountToken: ref(SA_TOKEN),
    }),
    [CM_PROJECTION]: struct('A projected ConfigMap.', { items: items(), name: str(), optional: bool() }),
    [SECRET_PROJECTION]: struct('A projected Secret.', { items: items(), name: str(), optional: bool() }),
    [SA_TOKEN]: struct(
      'A projected service account token.',
      { audience: str(), expirationSeconds: int64(undefined, { default: 3600 }), path: str() },
      { required: ['path'] },
    ),
    [KEY_TO_PATH]: struct('A key projected to a path.', { key: str(), mode: int32(), path: str() }, { required: ['key', 'path'] }),
  },
  protobuf: {
    [VOLUME]: { name: 1 },
    [HOST_PATH]: { path: 1, type: pointer(2) },
    [EMPTY_DIR]: { medium: 1, sizeLimit: pointer(2) },
    [SECRET]: { secretName: 1, items: 2, defaultMode: pointer(3), optional: pointer(4) },
    [PVC]: { claimName: 1, readOnly: 2 },
    [CONFIG_MAP]: { items: 2, defaultMode: pointer(3), optional: pointer(4) },
    [PROJECTED]: { sources: 1, defaultMode: pointer(2) },
    [PROJECTION]: { secret: pointer(1), configMap: pointer(3), serviceAccountToken: pointer(4) },
    [CM_PROJECTION]: { items: 2, optional: pointer(4) },
    [SECRET_PROJECTION]: { items: 2, optional: pointer(4) },
    [SA_TOKEN]: { audience: 1, expirationSeconds: pointer(2), path: 3 },
    [KEY_TO_PATH]: { key: 1, path: 2, mode: pointer(3) },
  },
};
