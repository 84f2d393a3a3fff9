// ResourceQuota policy (pkg/registry/core/resourcequota/strategy.go): create starts with an empty
// status, the main resource keeps status, /status keeps spec. Nothing here enforces a quota.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  validateResourceQuota,
  validateResourceQuotaStatusUpdate,
  validateResourceQuotaUpdate,
} from './validation.js';

/** SetDefaults_ResourceList on the hard limits of the spec and the status, and on what is used. */
function setDefaults(quota: ResourceQuota): void {
  roundUpResourceList(quota.spec?.hard);
  roundUpResourceList(quota.status?.hard);
  roundUpResourceList(quota.status?.used);
}

export const resourceQuotaStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDefaults,
  prepareForCreate: (_ctx, quota) => {
    setDefaults(quota);
    quota.status = {};
  },
  validate: (_ctx, quota) => validateResourceQuota(quota),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, quota, old) => {
    setDefaults(quota);
    quota.status = old.status ?? {};
  },
  validateUpdate: (_ctx, quota, old) => validateResourceQuotaUpdate(quota, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<ResourceQuota> & UpdateStrategy<ResourceQuota>;

/** resourcequotas/status: takes the status, keeps the spec. */
export const resourceQuotaStatusStrategy = {
  ...resourceQuotaStrategy,
  prepareForUpdate: (_ctx, quota, old) => {
    setDefaults(quota);
    if (old.spec !== undefined) quota.spec = old.spec;
    else delete quota.spec;
  },
  validateUpdate: (_ctx, quota, old) => validateResourceQuotaStatusUpdate(quota, old),
} satisfies UpdateStrategy<ResourceQuota>;

/** ResourceQuotas are deleted at once. */
export const resourceQuotaDeleteStrategy = {} satisfies DeleteStrategy<ResourceQuota>;
