// GetWarningsForPersistentVolume (pkg/api/persistentvolume/util.go, 1.33), which kube's strategy
// gives on create and update: deprecated annotations, the Recycle reclaim policy, retired node labels
// in the required node affinity, and in-tree volume plugins kube no longer serves.
import type { PersistentVolume, PersistentVolumeSpec } from '../../../api/core/v1/persistent-volume.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForNodeSelectorTerm } from '../node/deprecated-labels.js';

const deprecatedAnnotations: readonly (readonly [key: string, message: string])[] = [
  [
    'volume.beta.kubernetes.io/storage-class',
    'deprecated since v1.8; use "storageClassName" attribute instead',
  ],
  ['volume.beta.kubernetes.io/mount-options', 'deprecated since v1.31; use "mountOptions" attribute instead'],
];

/** A retired plugin: the member, its name in the warning's path (the internal field's), the words. */
const retiredPlugins: readonly (readonly [
  field: keyof PersistentVolumeSpec,
  pathName: string,
  message: string,
])[] = [
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

/** GetWarningsForPersistentVolume. */
export function warningsForPersistentVolume(pv: PersistentVolume): string[] {
  const warnings: string[] = [];
  const annotations = pv.metadata?.annotations;
  if (annotations !== undefined)
    for (const [key, message] of deprecatedAnnotations)
      if (key in annotations)
        warnings.push(`${FieldPath.of('metadata', 'annotations').key(key).toString()}: ${message}`);
  const spec = pv.spec ?? {};
  if (spec.persistentVolumeReclaimPolicy === 'Recycle')
    warnings.push(
      'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    );
  const terms = spec.nodeAffinity?.required?.nodeSelectorTerms ?? [];
  terms.forEach((term, i) =>
    warnings.push(
      ...warningsForNodeSelectorTerm(term, false, () =>
        FieldPath.of('spec', 'nodeAffinity', 'required', 'nodeSelectorTerms').index(i),
      ),
    ),
  );
  for (const [field, pathName, message] of retiredPlugins)
    if (spec[field] !== undefined) warnings.push(`spec.${pathName}: ${message}`);
  return warnings;
}
