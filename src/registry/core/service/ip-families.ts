// initIPFamilyFields (pkg/registry/core/service/storage/alloc.go): ipFamilyPolicy and ipFamilies
// settled from the request, the old object and the families the cluster has ranges for, with the
// loose checks of ValidateServiceClusterIPsRelatedFields first.
import type { Service } from '../../../api/core/v1/service.js';
import { newInvalid } from '../../../machinery/errors/index.js';
import { FieldError, FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import { familyOf, type Family } from './ip-net.js';
import { clusterIPNone } from './service-helpers.js';
import { validateClusterIPFields } from './validation.js';

const otherFamily = (f: string): Family => (f === 'IPv4' ? 'IPv6' : 'IPv4');

function invalid(svc: Service, errs: ErrorList): Error {
  return newInvalid({ group: '', kind: 'Service' }, svc.metadata?.name ?? '', errs);
}

/** initIPFamilyFields: ipFamilyPolicy and ipFamilies from the request and the cluster's ranges. */
export function initIPFamilyFields(
  svc: Service,
  at: { old: Service | null; configured: readonly Family[] },
): void {
  const { old, configured } = at;
  const isConfigured = (f: string): boolean => configured.some((c) => c === f);
  const defaultFamily = configured[0] ?? 'IPv4';
  const spec = (svc.spec ??= {});
  if (spec.type === 'ExternalName') return;
  const headlessSelectorless =
    spec.clusterIP === clusterIPNone && Object.keys(spec.selector ?? {}).length === 0;
  spec.ipFamilyPolicy ??=
    old?.spec?.ipFamilyPolicy ?? (headlessSelectorless ? 'RequireDualStack' : 'SingleStack');
  const pre = validateClusterIPFields(svc, old);
  if (pre.length > 0) throw invalid(svc, pre);
  const errs: ErrorList = [];
  const policyPath = FieldPath.of('spec', 'ipFamilyPolicy');
  const clusterIPs = spec.clusterIPs ?? [];
  const families = [...(spec.ipFamilies ?? [])];
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (clusterIPs.length === 2) {
      errs.push(
        FieldError.invalid(
          policyPath,
          spec.ipFamilyPolicy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        ),
      );
    }
    if (families.length === 2) {
      errs.push(
        FieldError.invalid(
          policyPath,
          spec.ipFamilyPolicy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ),
      );
    }
  }
  for (const [i, ip] of clusterIPs.entries()) {
    if (ip === clusterIPNone) break;
    const fam = familyOf(ip);
    if (fam === undefined || i < families.length) continue;
    if (!isConfigured(fam)) {
      errs.push(
        FieldError.invalid(
          FieldPath.of('spec', 'clusterIPs').index(i),
          clusterIPs,
          `${fam} is not configured on this cluster`,
        ),
      );
    } else families.push(fam);
  }
  if (errs.length > 0) throw invalid(svc, errs);
  if (headlessSelectorless) {
    if (families.length === 0) families.push(defaultFamily);
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack')
      families.push(otherFamily(families[0] ?? ''));
    spec.ipFamilies = families;
    return;
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack' && configured.length < 2) {
    errs.push(
      FieldError.invalid(
        policyPath,
        spec.ipFamilyPolicy,
        'this cluster is not configured for dual-stack services',
      ),
    );
  }
  families.forEach((f, i) => {
    if (!isConfigured(f))
      errs.push(
        FieldError.invalid(FieldPath.of('spec', 'ipFamilies').index(i), f, 'not configured on this cluster'),
      );
  });
  if (errs.length > 0) throw invalid(svc, errs);
  if (families.length === 0) families.push(defaultFamily);
  if (spec.ipFamilyPolicy !== 'SingleStack' && families.length === 1 && configured.length === 2) {
    families.push(otherFamily(families[0] ?? ''));
  }
  spec.ipFamilies = families;
}
