// The core API's ObjectMeta rules on top of apimachinery's (pkg/apis/core/validation/validation.go):
// finalizer names without a '/' must be one of the standard ones. Shared by the core kinds; it
// belongs with a core validation module once there is one.
import type { ObjectMeta } from '../../../api/meta.js';
import {
  FieldError,
  FieldPath,
  isQualifiedName,
  validateObjectMeta,
  type ErrorList,
  type ValidateNameFunc,
} from '../../../machinery/validation/index.js';
import { validateObjectMetaUpdate } from '../../generic/validate-meta-update.js';

/** api.FinalizerKubernetes: the namespace controller's finalizer. */
export const finalizerKubernetes = 'kubernetes';

/** helper.IsStandardFinalizerName. */
const standardFinalizers: ReadonlySet<string> = new Set([
  finalizerKubernetes,
  'orphan',
  'foregroundDeletion',
]);

/** validateKubeFinalizerName: a name without a '/' must be a standard one. */
export function validateKubeFinalizerName(name: string, path: FieldPath): ErrorList {
  if (name.split('/').length === 1 && !standardFinalizers.has(name)) {
    return [
      FieldError.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'),
    ];
  }
  return [];
}

/** validateFinalizerName: a qualified name, and a standard one when it has no '/'. */
export function validateFinalizerName(name: string, path: FieldPath): ErrorList {
  return [
    ...isQualifiedName(name).map((msg) => FieldError.invalid(path, name, msg)),
    ...validateKubeFinalizerName(name, path),
  ];
}

function finalizerErrors(meta: ObjectMeta): ErrorList {
  const path = FieldPath.of('metadata', 'finalizers');
  return (meta.finalizers ?? []).flatMap((f, i) => validateKubeFinalizerName(f, path.index(i)));
}

/** core ValidateObjectMeta. */
export function validateCoreObjectMeta(
  meta: ObjectMeta,
  opts: { requiresNamespace: boolean; validateName: ValidateNameFunc },
): ErrorList {
  return [...validateObjectMeta(meta, opts), ...finalizerErrors(meta)];
}

/** core ValidateObjectMetaUpdate. */
export function validateCoreObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): ErrorList {
  return [...validateObjectMetaUpdate(meta, old), ...finalizerErrors(meta)];
}
