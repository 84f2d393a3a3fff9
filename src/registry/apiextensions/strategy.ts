// CustomResourceDefinition strategy (apiextensions-apiserver/pkg/registry/customresourcedefinition/
// strategy.go) with the v1 defaults (pkg/apis/apiextensions/v1/defaults.go). kube's naming and
// establishing controllers accept the names and mark the CRD Established asynchronously; here the
// strategy does it at once (names are not checked against other CRDs): a created CRD carries
// NamesAccepted=True and Established=True, and status.acceptedNames follows spec.names. Requests
// for its resources wait the moments until they are served (src/controlplane/customresources).
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
} from '../../api/apiextensions/v1/crd.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../rest/strategy.js';
import { setCRDCondition } from './conditions.js';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './validation.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { nowRFC3339 } from '../../machinery/time/rfc3339.js';

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
  return ((crd.spec.versions as CustomResourceDefinition['spec']['versions'] | undefined) ?? []).find(
    (v) => v.storage,
  )?.name;
}

/** Adds the storage version to status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const version = storageVersion(crd);
  if (version === undefined) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(version)) stored.push(version);
}

const now = nowRFC3339;

/** What kube's NamingConditionController and EstablishingController write for a conflict-free CRD. */
function acceptNames(crd: CustomResourceDefinition): void {
  (crd.status ??= {}).acceptedNames = deepCopyJSON(crd.spec.names);
  const at = now();
  setCRDCondition(crd, {
    type: 'NamesAccepted',
    status: 'True',
    lastTransitionTime: at,
    reason: 'NoConflicts',
    message: 'no conflicts found',
  });
  setCRDCondition(crd, {
    type: 'Established',
    status: 'True',
    lastTransitionTime: at,
    reason: 'InitialNamesAccepted',
    message: 'the initial names have been accepted',
  });
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
  prepareForCreate: (_ctx, crd) => {
    ensureSpec(crd);
    crd.status = {};
    defaultCRD(crd);
    recordStorageVersion(crd);
    acceptNames(crd);
  },
  validate: (_ctx, crd) => validateCRD(crd),
  prepareForUpdate: (_ctx, crd, old) => {
    ensureSpec(crd);
    crd.status = deepCopyJSON(old.status ?? {});
    defaultCRD(crd);
    recordStorageVersion(crd);
    acceptNames(crd);
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
