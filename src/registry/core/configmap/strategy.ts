// ConfigMap policy (pkg/registry/core/configmap/strategy.go) and validation (ValidateConfigMap and
// ValidateConfigMapUpdate in pkg/apis/core/validation/validation.go).
import type { ConfigMap } from '../../../api/core/v1/config-map.js';
import {
  byteLength,
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { base64Size, isConfigMapKey, maxSecretSize, sortedKeys } from './config-map-key.js';

const immutableMsg = 'field is immutable when `immutable` is set';

/** ValidateConfigMap. */
export function validateConfigMap(cm: ConfigMap): ErrorList {
  const errs = validateCoreObjectMeta(cm.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
  const data = cm.data ?? {};
  const binary = cm.binaryData ?? {};
  let total = 0;
  for (const key of sortedKeys(data)) {
    const path = FieldPath.of('data').key(key);
    for (const msg of isConfigMapKey(key)) errs.push(FieldError.invalid(path, key, msg));
    if (Object.hasOwn(binary, key))
      errs.push(FieldError.invalid(path, key, 'duplicate of key present in binaryData'));
    total += byteLength(data[key] ?? '');
  }
  for (const key of sortedKeys(binary)) {
    for (const msg of isConfigMapKey(key))
      errs.push(FieldError.invalid(FieldPath.of('binaryData').key(key), key, msg));
    total += base64Size(binary[key] ?? '');
  }
  // The whole object is too large: kube reports it at the empty path.
  if (total > maxSecretSize) errs.push(FieldError.tooLong(FieldPath.of(''), maxSecretSize));
  return errs;
}

/** ValidateConfigMapUpdate. */
export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): ErrorList {
  const errs = validateCoreObjectMetaUpdate(cm.metadata ?? {}, old.metadata ?? {});
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(FieldError.forbidden(FieldPath.of('immutable'), immutableMsg));
    if (!jsonEqual(cm.data, old.data)) errs.push(FieldError.forbidden(FieldPath.of('data'), immutableMsg));
    if (!jsonEqual(cm.binaryData, old.binaryData))
      errs.push(FieldError.forbidden(FieldPath.of('binaryData'), immutableMsg));
  }
  return [...errs, ...validateConfigMap(cm)];
}

export const configMapStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => undefined,
  validate: (_ctx, cm) => validateConfigMap(cm),
  warningsOnCreate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, cm, old) => validateConfigMapUpdate(cm, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<ConfigMap> & UpdateStrategy<ConfigMap>;

/** ConfigMaps are deleted at once. */
export const configMapDeleteStrategy = {} satisfies DeleteStrategy<ConfigMap>;
