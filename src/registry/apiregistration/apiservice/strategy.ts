// APIService policy (k8s.io/kube-aggregator/pkg/registry/apiservice/strategy.go): the main resource
// keeps the stored status, /status keeps the spec and metadata; a service port defaults to 443.
import type { APIService } from '../../../api/apiregistration/v1/api-service.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateAPIService, validateAPIServiceStatus } from './validation.js';

/** SetDefaults_ServiceReference, as the decoder runs it: before the field manager sees the body. */
function setServiceReferenceDefaults(apiService: APIService): void {
  const service = (apiService.spec as Partial<APIService['spec']> | undefined)?.service;
  if (service !== undefined && service !== null) service.port ??= 443;
}

/** SetDefaults_ServiceReference, and `service: null` for a local APIService (Go's nil pointer). */
function defaultSpec(apiService: APIService): void {
  setServiceReferenceDefaults(apiService);
  const spec = ((apiService as Partial<APIService>).spec ??= {
    service: null,
    groupPriorityMinimum: 0,
    versionPriority: 0,
  });
  const numbers = spec as Partial<typeof spec>;
  numbers.service ??= null;
  numbers.groupPriorityMinimum ??= 0;
  numbers.versionPriority ??= 0;
}

export const apiServiceStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  defaultDecoded: setServiceReferenceDefaults,
  prepareForCreate: (_ctx, apiService) => {
    defaultSpec(apiService);
    apiService.status = {};
  },
  validate: (_ctx, apiService) => validateAPIService(apiService),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, apiService, old) => {
    defaultSpec(apiService);
    if (old.status === undefined) delete apiService.status;
    else apiService.status = old.status;
  },
  validateUpdate: (_ctx, apiService) => validateAPIService(apiService),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<APIService> & UpdateStrategy<APIService>;

export const apiServiceStatusStrategy = {
  ...apiServiceStrategy,
  prepareForUpdate: (_ctx, apiService, old) => {
    apiService.spec = old.spec;
    const meta = { ...apiService.metadata };
    delete meta.labels;
    delete meta.annotations;
    delete meta.finalizers;
    delete meta.ownerReferences;
    const before = old.metadata ?? {};
    apiService.metadata = {
      ...meta,
      ...(before.labels === undefined ? {} : { labels: before.labels }),
      ...(before.annotations === undefined ? {} : { annotations: before.annotations }),
      ...(before.finalizers === undefined ? {} : { finalizers: before.finalizers }),
      ...(before.ownerReferences === undefined ? {} : { ownerReferences: before.ownerReferences }),
    };
  },
  validateUpdate: (_ctx, apiService) => validateAPIServiceStatus(apiService),
} satisfies UpdateStrategy<APIService>;

export const apiServiceDeleteStrategy = {} satisfies DeleteStrategy<APIService>;
