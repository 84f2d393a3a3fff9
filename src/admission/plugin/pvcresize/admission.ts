// PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize), on by default:
// a claim's storage request may grow only once the claim is Bound, and only when it keeps its
// StorageClass and that class sets allowVolumeExpansion. Shrinking, or leaving the size, is for
// validation to judge.
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { storageClassOf } from '../../../api/core/v1/persistent-volume.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { compareQuantities, parseQuantity } from '../../../machinery/quantity/quantity.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, type ValidationInterface } from '../../interfaces.js';
import type { ClassReader } from '../class-reader.js';

export const pvcResizePluginName = 'PersistentVolumeClaimResize';

const notResizable =
  'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

/** The storage request grows: an absent or unparsable request counts as zero, as Go's does. */
function grows(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): boolean {
  const size = (claim: PersistentVolumeClaim): ReturnType<typeof parseQuantity> =>
    parseQuantity(claim.spec?.resources?.requests?.['storage'] ?? '0');
  const now = size(pvc);
  const before = size(old);
  if (!now.ok) return false;
  return before.ok ? compareQuantities(now.quantity, before.quantity) > 0 : true;
}

const claimClass = (pvc: PersistentVolumeClaim): string =>
  storageClassOf(pvc.metadata, pvc.spec?.storageClassName);

export class PersistentVolumeClaimResize implements ValidationInterface {
  readonly handles = handlesOnly('UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['persistentvolumeclaims']);
  readonly #classes: ClassReader<StorageClass>;

  constructor(storageClasses: ClassReader<StorageClass>) {
    this.#classes = storageClasses;
  }

  /** Stops the class informer. */
  close(): void {
    this.#classes.close();
  }

  validate(ctx: RequestContext, a: Attributes): AdmissionResult {
    if (a.resource.group !== '' || a.resource.resource !== 'persistentvolumeclaims') return undefined;
    if (a.subresource !== '' || a.object === null || a.oldObject === null) return undefined;
    const pvc = a.object as PersistentVolumeClaim;
    const old = a.oldObject as PersistentVolumeClaim;
    if (!grows(pvc, old)) return undefined;
    if (old.status?.phase !== 'Bound')
      return Promise.reject(newAdmissionForbidden(a, 'Only bound persistent volume claims can be expanded'));
    const name = claimClass(pvc);
    if (name === '' || claimClass(old) !== name)
      return Promise.reject(newAdmissionForbidden(a, notResizable));
    const judge = (sc: StorageClass | undefined): void => {
      if (sc?.allowVolumeExpansion !== true) throw newAdmissionForbidden(a, notResizable);
    };
    const now = this.#classes.getNow(name);
    if (now !== undefined) {
      judge(now);
      return undefined;
    }
    return this.#classes.get(name, ctx).then(judge, () => {
      judge(undefined);
    });
  }
}
