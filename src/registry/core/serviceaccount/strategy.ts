// ServiceAccount policy (pkg/registry/core/serviceaccount/strategy.go) and validation
// (ValidateServiceAccount and ValidateServiceAccountUpdate in pkg/apis/core/validation/validation.go).
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import { nameIsDNSSubdomain, type ErrorList } from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';

/** ValidateServiceAccount: the name is a DNS subdomain (ValidateServiceAccountName). */
export function validateServiceAccount(sa: ServiceAccount): ErrorList {
  return validateCoreObjectMeta(sa.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
}

/** ValidateServiceAccountUpdate. */
export function validateServiceAccountUpdate(sa: ServiceAccount, old: ServiceAccount): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(sa.metadata ?? {}, old.metadata ?? {}),
    ...validateServiceAccount(sa),
  ];
}

/** cleanSecretReferences: a secret reference keeps only its name. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets === undefined) return;
  sa.secrets = sa.secrets.map((s) => (s.name !== undefined ? { name: s.name } : {}));
}

export const serviceAccountStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (_ctx, sa) => {
    cleanSecretReferences(sa);
  },
  validate: (_ctx, sa) => validateServiceAccount(sa),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, sa) => {
    cleanSecretReferences(sa);
  },
  validateUpdate: (_ctx, sa, old) => validateServiceAccountUpdate(sa, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<ServiceAccount> & UpdateStrategy<ServiceAccount>;

/** ServiceAccounts are deleted at once. */
export const serviceAccountDeleteStrategy = {} satisfies DeleteStrategy<ServiceAccount>;
