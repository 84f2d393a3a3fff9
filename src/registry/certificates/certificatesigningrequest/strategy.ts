// CertificateSigningRequest policy (pkg/registry/certificates/certificates/strategy.go): the requester
// is whoever creates the request; the main resource changes neither spec nor status, /status sets the
// certificate and other conditions, /approval adds Approved or Denied. Field selector:
// spec.signerName.
import type {
  CertificateSigningRequest,
  CertificateSigningRequestCondition,
} from '../../../api/certificates/v1/certificate-signing-request.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import { rfc3339 } from '../../generic/object-meta.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { AttrFunc, CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  validateCertificateSigningRequestCreate,
  validateCertificateSigningRequestUpdate,
} from './validation.js';

export const csrStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (ctx, csr) => {
    const spec = (csr.spec ??= { request: '', signerName: '' });
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    const { user } = ctx;
    if (user.name !== '') spec.username = user.name;
    if ((user.uid ?? '') !== '') spec.uid = user.uid ?? '';
    if (user.groups.length > 0) spec.groups = [...user.groups];
    const extra = Object.entries(user.extra ?? {});
    if (extra.length > 0) spec.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
    // Requests cannot be created approved.
    csr.status = {};
  },
  validate: (_ctx, csr) => validateCertificateSigningRequestCreate(csr),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, csr, old) => {
    // Immutable after creation except through the subresources.
    setOrDelete(csr, 'spec', old.spec);
    setOrDelete(csr, 'status', old.status);
  },
  validateUpdate: (_ctx, csr, old) => validateCertificateSigningRequestUpdate(csr, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<CertificateSigningRequest> & UpdateStrategy<CertificateSigningRequest>;

function setOrDelete<K extends 'spec' | 'status'>(
  csr: CertificateSigningRequest,
  key: K,
  value: CertificateSigningRequest[K],
): void {
  if (value !== undefined) {
    csr[key] = value;
    return;
  }
  if (key === 'spec') delete csr.spec;
  else delete csr.status;
}

/** Keeps the stored instances of a condition type when their number did not change. */
function preserveConditionInstances(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  type: string,
): void {
  const conditions = csr.status?.conditions ?? [];
  const oldConditions = old.status?.conditions ?? [];
  const newIdx = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
  const oldIdx = oldConditions.flatMap((c, i) => (c.type === type ? [i] : []));
  if (newIdx.length !== oldIdx.length) return;
  newIdx.forEach((n, k) => {
    const kept = oldConditions[oldIdx[k] ?? -1];
    if (kept !== undefined) conditions[n] = kept;
  });
}

/** Sets missing lastUpdateTime to now, and lastTransitionTime to the stored one of the same type and status. */
function populateConditionTimestamps(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  nowMs: number,
): void {
  const now = rfc3339(new Date(nowMs));
  const oldConditions = old.status?.conditions ?? [];
  const conditions = csr.status?.conditions ?? [];
  conditions.forEach((c, i) => {
    const next: CertificateSigningRequestCondition = { ...c };
    if ((next.lastUpdateTime ?? '') === '') next.lastUpdateTime = now;
    if ((next.lastTransitionTime ?? '') === '') {
      const same = oldConditions.find(
        (o) => o.type === c.type && o.status === c.status && (o.lastTransitionTime ?? '') !== '',
      );
      next.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
    conditions[i] = next;
  });
}

/**
 * certificatesigningrequests/status: the certificate and conditions other than Approved and Denied.
 * `now` is the server's clock (ms), which stamps the conditions.
 */
export const csrStatusStrategy = (now: () => number) =>
  ({
    ...csrStrategy,
    prepareForUpdate: (_ctx, csr, old) => {
      setOrDelete(csr, 'spec', old.spec);
      preserveConditionInstances(csr, old, 'Approved');
      preserveConditionInstances(csr, old, 'Denied');
      populateConditionTimestamps(csr, old, now());
    },
    validateUpdate: (_ctx, csr, old) =>
      validateCertificateSigningRequestUpdate(csr, old, { allowSettingCertificate: true }),
  }) satisfies UpdateStrategy<CertificateSigningRequest>;

/** certificatesigningrequests/approval: only the conditions change. */
export const csrApprovalStrategy = (now: () => number) =>
  ({
    ...csrStrategy,
    prepareForUpdate: (_ctx, csr, old) => {
      populateConditionTimestamps(csr, old, now());
      const conditions = csr.status?.conditions;
      setOrDelete(csr, 'spec', old.spec);
      const status = { ...old.status };
      if (conditions === undefined) delete status.conditions;
      else status.conditions = conditions;
      csr.status = status;
    },
    validateUpdate: (_ctx, csr, old) =>
      validateCertificateSigningRequestUpdate(csr, old, { allowSettingApprovalConditions: true }),
  }) satisfies UpdateStrategy<CertificateSigningRequest>;

export const csrDeleteStrategy = {} satisfies DeleteStrategy<CertificateSigningRequest>;

/** SelectableFields: the object meta fields and spec.signerName. */
export const csrAttrs: AttrFunc<CertificateSigningRequest> = (csr) => ({
  labels: csr.metadata?.labels ?? {},
  fields: mergeFieldsSets(objectMetaFieldsSet(csr.metadata, false), {
    'spec.signerName': csr.spec?.signerName ?? '',
  }),
});

export const csrFieldLabelConversion: TransformFunc = (field, value) =>
  field === 'metadata.name' || field === 'spec.signerName'
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };
