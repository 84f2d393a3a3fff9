// CSIStorageCapacity policy (pkg/registry/storage/csistoragecapacity/strategy.go) and validation
// (ValidateCSIStorageCapacity and ValidateCSIStorageCapacityUpdate in pkg/apis/storage/validation):
// the node topology and the storage class are the inputs of CSI GetCapacity, so they are
// immutable; capacities are non-negative.
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import { validateLabelSelector } from '../../../machinery/labels/validate-label-selector.js';
import { parseQuantity, quantitySign } from '../../../machinery/quantity/quantity.js';
import {
  FieldError,
  FieldPath,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { fieldImmutableErrorMsg } from '../../generic/validate-meta-update.js';
import { validateClassName } from '../../core/persistentvolume/validation.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

/** ValidateNonnegativeQuantity. */
function validateNonnegativeQuantity(value: string | undefined, path: FieldPath): ErrorList {
  if (value === undefined) return [];
  const parsed = parseQuantity(value);
  if (parsed.ok && quantitySign(parsed.quantity) < 0) {
    return [FieldError.invalid(path, value, 'must be greater than or equal to 0')];
  }
  return [];
}

/** ValidateCSIStorageCapacity. */
export function validateCSIStorageCapacity(c: CSIStorageCapacity): ErrorList {
  return [
    ...validateObjectMeta(c.metadata ?? {}, { requiresNamespace: true, validateName: nameIsDNSSubdomain }),
    ...validateLabelSelector(c.nodeTopology, FieldPath.of('nodeTopology')),
    ...validateClassName(c.storageClassName, FieldPath.of('storageClassName')),
    ...validateNonnegativeQuantity(c.capacity, FieldPath.of('capacity')),
  ];
}

/** ValidateCSIStorageCapacityUpdate (the metadata is the generic update's). */
export function validateCSIStorageCapacityUpdate(c: CSIStorageCapacity, old: CSIStorageCapacity): ErrorList {
  const errs: ErrorList = [];
  if (!jsonEqual(c.nodeTopology, old.nodeTopology)) {
    errs.push(
      FieldError.invalid(FieldPath.of('nodeTopology'), c.nodeTopology ?? null, fieldImmutableErrorMsg),
    );
  }
  if (c.storageClassName !== old.storageClassName) {
    errs.push(
      FieldError.invalid(FieldPath.of('storageClassName'), c.storageClassName, fieldImmutableErrorMsg),
    );
  }
  return errs;
}

export const csiStorageCapacityStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  prepareForCreate: () => undefined,
  validate: (_ctx, c) => validateCSIStorageCapacity(c),
  warningsOnCreate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, c, old) => [
    ...validateCSIStorageCapacity(c),
    ...validateCSIStorageCapacityUpdate(c, old),
  ],
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<CSIStorageCapacity> & UpdateStrategy<CSIStorageCapacity>;

export const csiStorageCapacityDeleteStrategy = {} satisfies DeleteStrategy<CSIStorageCapacity>;
