// The OpenAPI and protobuf schema of the core/v1 volume sources typed in volume-sources.ts: field
// numbers are the `protobuf` tags of k8s.io/api/core/v1 types.go; defaults are its `+default` markers.
import { LABEL_SELECTOR } from '../../meta/v1/label-selector.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { bool, ref, str, stringMap, struct } from '../../schema/builders.js';

export const volumeSourcesModule: APIModule = {
  definitions: {
    [coreV1('CSIVolumeSource')]: struct(
      'An inline volume served by a CSI driver.',
      {
        driver: str(),
        fsType: str(),
        nodePublishSecretRef: ref(coreV1('LocalObjectReference')),
        readOnly: bool(),
        volumeAttributes: stringMap(),
      },
      { required: ['driver'] },
    ),
    [coreV1('EphemeralVolumeSource')]: struct(
      'A volume whose claim is created with the pod and deleted with it.',
      { volumeClaimTemplate: ref(coreV1('PersistentVolumeClaimTemplate')) },
    ),
    [coreV1('PersistentVolumeClaimTemplate')]: struct(
      'The claim an ephemeral volume creates.',
      {
        metadata: ref(OBJECT_META, undefined, { default: {} }),
        spec: ref(coreV1('PersistentVolumeClaimSpec'), undefined, { default: {} }),
      },
      { required: ['spec'] },
    ),
    [coreV1('ImageVolumeSource')]: struct('An OCI image or artifact mounted as a volume.', {
      pullPolicy: str(),
      reference: str(),
    }),
    [coreV1('ClusterTrustBundleProjection')]: struct(
      'ClusterTrustBundle objects projected into a file.',
      { labelSelector: ref(LABEL_SELECTOR), name: str(), optional: bool(), path: str(), signerName: str() },
      { required: ['path'] },
    ),
  },
  protobuf: {
    [coreV1('CSIVolumeSource')]: {
      driver: 1,
      readOnly: pointer(2),
      fsType: pointer(3),
      volumeAttributes: 4,
      nodePublishSecretRef: pointer(5),
    },
    [coreV1('EphemeralVolumeSource')]: { volumeClaimTemplate: pointer(1) },
    [coreV1('PersistentVolumeClaimTemplate')]: { metadata: 1, spec: 2 },
    [coreV1('ImageVolumeSource')]: { reference: 1, pullPolicy: 2 },
    [coreV1('ClusterTrustBundleProjection')]: {
      name: pointer(1),
      signerName: pointer(2),
      labelSelector: pointer(3),
      optional: pointer(5),
      path: 4,
    },
  },
};
