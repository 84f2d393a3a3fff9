// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault/admission.go), enabled
// by default in kube-apiserver: a new PersistentVolumeClaim that asks for no class (no
// spec.storageClassName, not even "", and no volume.beta.kubernetes.io/storage-class annotation) gets
// the StorageClass annotated storageclass.kubernetes.io/is-default-class: "true" (or the beta
// annotation); of several, the newest, then the first by name. No default class: unchanged.
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { betaStorageClassAnnotation } from '../../../api/core/v1/persistent-volume.js';
import { isDefaultStorageClass, type StorageClass } from '../../../api/storage/v1/storage-class.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type MutationInterface } from '../../interfaces.js';
import { newestDefault, type ClassReader } from '../class-reader.js';

export const defaultStorageClassPluginName = 'DefaultStorageClass';

export interface DefaultStorageClassOptions {
  readonly storageClasses: ClassReader<StorageClass>;
}

/** helper.PersistentVolumeClaimHasClass. */
const hasClass = (pvc: PersistentVolumeClaim): boolean =>
  Object.prototype.hasOwnProperty.call(pvc.metadata?.annotations ?? {}, betaStorageClassAnnotation) ||
  pvc.spec?.storageClassName !== undefined;

export class DefaultStorageClass implements MutationInterface {
  readonly #classes: ClassReader<StorageClass>;
  readonly handles = handlesOnly('CREATE');
  readonly resources: ReadonlySet<string> = new Set(['persistentvolumeclaims']);

  constructor(opts: DefaultStorageClassOptions) {
    this.#classes = opts.storageClasses;
  }

  /** Stops the class informer. */
  close(): void {
    this.#classes.close();
  }

  async admit(ctx: RequestContext, a: Attributes): Promise<void> {
    if (a.resource.group !== '' || a.resource.resource !== 'persistentvolumeclaims') return;
    if (a.subresource !== '' || a.object === null) return;
    const pvc = a.object as PersistentVolumeClaim;
    if (hasClass(pvc)) return;
    let classes: readonly StorageClass[];
    try {
      classes = await this.#classes.list(ctx);
    } catch (err) {
      throw newAdmissionForbidden(a, err);
    }
    const def = newestDefault(classes.filter(isDefaultStorageClass));
    if (def === undefined) return;
    (pvc.spec ??= {}).storageClassName = def.metadata?.name ?? '';
  }
}
