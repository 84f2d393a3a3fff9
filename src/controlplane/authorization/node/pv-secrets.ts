// The secrets a kubelet reads for a PersistentVolume (pkg/api/v1/persistentvolume/util.go
// VisitPVSecretNames, its kubeletVisible ones): where a source's secret reference has no namespace,
// the bound claim's namespace is meant.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';

export interface SecretRef {
  readonly namespace: string;
  readonly name: string;
}

/** The kubelet-visible secrets of the volume's one source, empty names left out. */
export function kubeletVisiblePVSecrets(pv: PersistentVolume): SecretRef[] {
  const spec = pv.spec ?? {};
  const claimNamespace = spec.claimRef?.namespace ?? '';
  const out: SecretRef[] = [];
  const add = (namespace: string | undefined, name: string | undefined): void => {
    if (name !== undefined && name !== '') out.push({ namespace: namespace ?? '', name });
  };
  // A reference whose own namespace, when set, wins over the claim's.
  const claimDefault = (ref: { namespace?: string; name?: string } | undefined): void => {
    if (ref !== undefined) add((ref.namespace ?? '') !== '' ? ref.namespace : claimNamespace, ref.name);
  };
  if (spec.azureFile !== undefined) {
    const ns = spec.azureFile.secretNamespace ?? '';
    add(ns !== '' ? ns : claimNamespace, spec.azureFile.secretName);
  } else if (spec.cephfs !== undefined) claimDefault(spec.cephfs.secretRef);
  else if (spec.cinder !== undefined) add(spec.cinder.secretRef?.namespace, spec.cinder.secretRef?.name);
  else if (spec.flexVolume !== undefined) claimDefault(spec.flexVolume.secretRef);
  else if (spec.rbd !== undefined) claimDefault(spec.rbd.secretRef);
  else if (spec.scaleIO !== undefined) claimDefault(spec.scaleIO.secretRef);
  else if (spec.iscsi !== undefined) claimDefault(spec.iscsi.secretRef);
  else if (spec.storageos !== undefined)
    add(spec.storageos.secretRef?.namespace, spec.storageos.secretRef?.name);
  else if (spec.csi !== undefined) {
    // The controller's secrets are the CSI controller's, not the kubelet's.
    for (const ref of [
      spec.csi.nodePublishSecretRef,
      spec.csi.nodeStageSecretRef,
      spec.csi.nodeExpandSecretRef,
    ])
      add(ref?.namespace, ref?.name);
  }
  return out;
}
