// StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection), enabled
// by default in kube-apiserver: every new PersistentVolumeClaim gets the kubernetes.io/pvc-protection
// finalizer and every new PersistentVolume kubernetes.io/pv-protection, which the protection
// controllers remove once nothing uses the object.
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { handlesOnly, type AdmissionResult, type MutationInterface } from '../../interfaces.js';

export const storageObjectInUseProtectionPluginName = 'StorageObjectInUseProtection';

/** volumeutil.PVCProtectionFinalizer and PVProtectionFinalizer. */
export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

const finalizerFor: Readonly<Record<string, string>> = {
  persistentvolumeclaims: pvcProtectionFinalizer,
  persistentvolumes: pvProtectionFinalizer,
};

export class StorageObjectInUseProtection implements MutationInterface {
  readonly handles = handlesOnly('CREATE');
  readonly resources: ReadonlySet<string> = new Set(Object.keys(finalizerFor));

  admit(_ctx: RequestContext, a: Attributes): AdmissionResult {
    const finalizer = a.resource.group === '' ? finalizerFor[a.resource.resource] : undefined;
    if (finalizer === undefined || a.subresource !== '' || a.object === null) return undefined;
    const meta = (a.object.metadata ??= {});
    const finalizers = meta.finalizers ?? [];
    if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
    return undefined;
  }
}
