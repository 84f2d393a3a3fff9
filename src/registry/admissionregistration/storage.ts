// The admissionregistration.k8s.io stores (pkg/registry/admissionregistration/*): cluster-scoped
// generic Stores with kube's validation and v1 defaults. The admission plugins evaluate them: the
// ValidatingAdmissionPolicy plugin (src/admission/plugin/policy) the policies, the webhook plugins
// (src/admission/plugin/webhook) call the webhooks.
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../api/admissionregistration/v1/policy.js';
import {
  admissionregistrationGroup,
  type MutatingWebhookConfiguration,
  type ValidatingWebhookConfiguration,
} from '../../api/admissionregistration/v1/webhook.js';
import type { KubeList, KubeObject } from '../../api/meta.js';
import { nameIsDNSSubdomain, validateObjectMeta, type ErrorList } from '../../machinery/validation/index.js';
import { completeResourceStore } from '../generic/resource-storage.js';
import type { RESTOptionsGetter } from '../generic/rest-options.js';
import { StatusREST } from '../generic/status-rest.js';
import type { Store } from '../generic/store.js';
import type { ObjectCountMetric } from '../generic/store-definition.js';
import { validateObjectMetaUpdate } from '../generic/validate-meta-update.js';
import type { TableConvertor } from '../rest/capabilities.js';
import type { CreateStrategy, UpdateStrategy } from '../rest/strategy.js';
import {
  defaultBinding,
  defaultPolicy,
  validateBinding,
  validatePolicy,
  validatePolicyStatus,
} from './policy-validation.js';
import {
  hasMatchConditions,
  validatePolicyExpressions,
  validateWebhookExpressions,
} from './policy-expressions.js';
import { WriteCheckedStore, type WriteCheck } from '../generic/write-checked-store.js';
import { loadCel } from '../apiextensions/customresource/cel/load.js';
import { bindingTableConvertor, policyTableConvertor, webhookConfigurationTableConvertor } from './tables.js';
import {
  createOptions,
  defaultWebhookConfiguration,
  updateOptions,
  validateWebhookConfiguration,
} from './webhook-validation.js';

export interface AdmissionStorageOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
}

interface KindSpec<T extends KubeObject> {
  readonly resource: string;
  readonly kind: string;
  readonly validate: (obj: T) => ErrorList;
  readonly validateUpdate: (obj: T, old: T) => ErrorList;
  readonly defaults: (obj: T) => void;
  readonly table: TableConvertor;
  /** Keeps status on spec updates and empties it on create (policies). */
  readonly hasStatus?: boolean;
  readonly trackGeneration: boolean;
}

const metaErrors = (obj: KubeObject): ErrorList =>
  validateObjectMeta(obj.metadata ?? {}, { requiresNamespace: false, validateName: nameIsDNSSubdomain });

function strategyOf<T extends KubeObject & { status?: unknown }>(
  spec: KindSpec<T>,
): CreateStrategy<T> & UpdateStrategy<T> {
  return {
    namespaceScoped: false,
    // kube's admissionregistration strategies refuse both.
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    // kube's decoder runs the v1 defaulters on every body, before admission and the field manager.
    defaultDecoded: spec.defaults,
    prepareForCreate: (_ctx, obj) => {
      // The status starts empty; kube's type checking controller fills it in.
      if (spec.hasStatus === true) obj.status = {};
      spec.defaults(obj);
    },
    validate: (_ctx, obj) => [...metaErrors(obj), ...spec.validate(obj)],
    prepareForUpdate: (_ctx, obj, old) => {
      if (spec.hasStatus === true) {
        obj.status = old.status ?? {};
      }
      spec.defaults(obj);
    },
    validateUpdate: (_ctx, obj, old) => [
      ...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}),
      ...metaErrors(obj),
      ...spec.validateUpdate(obj, old),
    ],
  };
}

function newAdmissionStore<T extends KubeObject & { status?: unknown }>(
  spec: KindSpec<T>,
  opts: AdmissionStorageOptions,
): Promise<Store<T>> {
  const apiVersion = `${admissionregistrationGroup}/v1`;
  const strategy = strategyOf(spec);
  return completeResourceStore<T>(
    {
      qualifiedResource: { group: admissionregistrationGroup, resource: spec.resource },
      singularName: spec.kind.toLowerCase(),
      newFunc: () => ({ apiVersion, kind: spec.kind }) as T,
      newListFunc: (): KubeList<T> => ({ apiVersion, kind: `${spec.kind}List`, metadata: {}, items: [] }),
      createStrategy: strategy,
      updateStrategy: strategy,
      deleteStrategy: {},
      tableConvertor: spec.table,
      categories: ['api-extensions'],
      trackGeneration: spec.trackGeneration,
    },
    opts,
  );
}

/**
 * Loads the CEL library before a write whose object `compiles` says has expressions, so that the
 * synchronous validation can compile them (as the CRD store does for x-kubernetes-validations). A
 * server that never writes one never loads the library.
 */
const loadingCel =
  (compiles: (obj: KubeObject) => boolean): WriteCheck =>
  async (_ctx, { obj }) => {
    if (compiles(obj)) await loadCel();
  };

export const newValidatingWebhookConfigurationREST = async (
  opts: AdmissionStorageOptions,
): Promise<Store<ValidatingWebhookConfiguration>> => {
  const completed = await newAdmissionStore<ValidatingWebhookConfiguration>(
    {
      resource: 'validatingwebhookconfigurations',
      kind: 'ValidatingWebhookConfiguration',
      validate: (c) => [...validateWebhookConfiguration(c, createOptions), ...validateWebhookExpressions(c)],
      validateUpdate: (c, old) => [
        ...validateWebhookConfiguration(c, updateOptions(old)),
        ...validateWebhookExpressions(c),
      ],
      defaults: (c) => {
        defaultWebhookConfiguration(c, false);
      },
      table: webhookConfigurationTableConvertor,
      trackGeneration: true,
    },
    opts,
  );
  return new WriteCheckedStore(completed, loadingCel(hasMatchConditions));
};

export const newMutatingWebhookConfigurationREST = async (
  opts: AdmissionStorageOptions,
): Promise<Store<MutatingWebhookConfiguration>> => {
  const completed = await newAdmissionStore<MutatingWebhookConfiguration>(
    {
      resource: 'mutatingwebhookconfigurations',
      kind: 'MutatingWebhookConfiguration',
      validate: (c) => [...validateWebhookConfiguration(c, createOptions), ...validateWebhookExpressions(c)],
      validateUpdate: (c, old) => [
        ...validateWebhookConfiguration(c, updateOptions(old)),
        ...validateWebhookExpressions(c),
      ],
      defaults: (c) => {
        defaultWebhookConfiguration(c, true);
      },
      table: webhookConfigurationTableConvertor,
      trackGeneration: true,
    },
    opts,
  );
  return new WriteCheckedStore(completed, loadingCel(hasMatchConditions));
};

export interface ValidatingAdmissionPolicyStorage {
  readonly policies: Store<ValidatingAdmissionPolicy>;
  readonly status: StatusREST<ValidatingAdmissionPolicy>;
}

export async function newValidatingAdmissionPolicyREST(
  opts: AdmissionStorageOptions,
): Promise<ValidatingAdmissionPolicyStorage> {
  const completed = await newAdmissionStore<ValidatingAdmissionPolicy>(
    {
      resource: 'validatingadmissionpolicies',
      kind: 'ValidatingAdmissionPolicy',
      validate: (p) => [...validatePolicy(p), ...validatePolicyExpressions(p)],
      validateUpdate: (p) => [...validatePolicy(p), ...validatePolicyExpressions(p)],
      defaults: defaultPolicy,
      table: policyTableConvertor,
      hasStatus: true,
      trackGeneration: true,
    },
    opts,
  );
  const policies = new WriteCheckedStore(
    completed,
    loadingCel(() => true),
  );
  const statusStrategy = {
    namespaceScoped: false,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForUpdate: (_ctx, obj, old) => {
      if (old.spec !== undefined) obj.spec = old.spec;
      else delete obj.spec;
    },
    validateUpdate: (_ctx, obj, old) => [
      ...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}),
      ...validatePolicyStatus(obj.status),
    ],
  } satisfies UpdateStrategy<ValidatingAdmissionPolicy>;
  return { policies, status: new StatusREST(policies, statusStrategy) };
}

export const newValidatingAdmissionPolicyBindingREST = (
  opts: AdmissionStorageOptions,
): Promise<Store<ValidatingAdmissionPolicyBinding>> =>
  newAdmissionStore<ValidatingAdmissionPolicyBinding>(
    {
      resource: 'validatingadmissionpolicybindings',
      kind: 'ValidatingAdmissionPolicyBinding',
      validate: validateBinding,
      validateUpdate: validateBinding,
      defaults: defaultBinding,
      table: bindingTableConvertor,
      trackGeneration: true,
    },
    opts,
  );
