// CustomResourceDefinition strategy (apiextensions-apiserver/pkg/registry/customresourcedefinition/
// strategy.go) with the v1 defaults (pkg/apis/apiextensions/v1/defaults.go). The names and the
// NamesAccepted and Established conditions are the store's step after this one (crd-store.ts), as
// they depend on the other CRDs of the group.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
} from '../../api/apiextensions/v1/crd.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../rest/strategy.js';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './validation.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

/** SetDefaults_CustomResourceDefinitionSpec and SetDefaults_ServiceReference. */
export function defaultCRD(crd: CustomResourceDefinition): void {
  const spec = crd.spec as Partial<CustomResourceDefinition['spec']> | undefined;
  if (spec === undefined) return;
  const names = spec.names as Partial<CustomResourceDefinitionNames> | undefined;
  if (names !== undefined) {
    if ((names.singular ?? '') === '') names.singular = (names.kind ?? '').toLowerCase();
    if ((names.listKind ?? '') === '' && (names.kind ?? '') !== '')
      names.listKind = `${names.kind ?? ''}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service !== undefined) service.port ??= 443;
}

function storageVersion(crd: CustomResourceDefinition): string | undefined {
  const spec = crd.spec as Partial<CustomResourceDefinition['spec']> | undefined;
  return (spec?.versions ?? []).find((v) => v.storage)?.name;
}

/** Adds the storage version to status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const version = storageVersion(crd);
  if (version === undefined) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(version)) stored.push(version);
}

/**
 * SetDefaults_CustomResourceDefinition, what kube's decoder runs on every body (the main resource's
 * and /status's): the spec's defaults, and the storage version as the only stored version when a
 * body names none.
 */
export function setCRDDecodeDefaults(crd: CustomResourceDefinition): void {
  defaultCRD(crd);
  if ((crd.status?.storedVersions ?? []).length > 0) return;
  const version = storageVersion(crd);
  if (version !== undefined) (crd.status ??= {}).storedVersions = [version];
}

/** A body without spec or names gets empty ones, so validation reports what is missing. */
function ensureSpec(crd: CustomResourceDefinition): void {
  const c = crd as { spec?: Partial<CustomResourceDefinition['spec']> };
  const spec = (c.spec ??= {});
  spec.names ??= {} as CustomResourceDefinitionNames;
  spec.versions ??= [];
}

export const crdStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  defaultDecoded: setCRDDecodeDefaults,
  prepareForCreate: (_ctx, crd) => {
    ensureSpec(crd);
    crd.status = {};
    defaultCRD(crd);
    recordStorageVersion(crd);
  },
  validate: (_ctx, crd) => validateCRD(crd),
  prepareForUpdate: (_ctx, crd, old) => {
    ensureSpec(crd);
    crd.status = deepCopyJSON(old.status ?? {});
    defaultCRD(crd);
    recordStorageVersion(crd);
  },
  validateUpdate: (_ctx, crd, old) => validateCRDUpdate(crd, old),
} satisfies CreateStrategy<CustomResourceDefinition> & UpdateStrategy<CustomResourceDefinition>;

/** customresourcedefinitions/status: takes the status, keeps the spec. */
export const crdStatusStrategy = {
  ...crdStrategy,
  prepareForUpdate: (_ctx, crd, old) => {
    crd.spec = old.spec;
  },
  validateUpdate: (_ctx, crd, old) => validateCRDStatusUpdate(crd, old),
} satisfies UpdateStrategy<CustomResourceDefinition>;

export const crdDeleteStrategy = {} satisfies DeleteStrategy<CustomResourceDefinition>;
