// Dynamic resource allocation claims as kube validates them (pkg/apis/core/validation/validation.go):
// the pod's resourceClaims (validatePodResourceClaims), the claims a container's resources name
// (validateResourceClaimNames) and the claim statuses of a status update
// (validatePodResourceClaimStatuses).
import type {
  PodResourceClaim,
  PodResourceClaimStatus,
  ResourceClaim,
} from '../../../../api/core/v1/resource-claims.js';
import {
  compareGoStrings,
  FieldError,
  goQuote,
  isDNS1123Label,
  nameIsDNSSubdomain,
  omitValue,
  FieldPath,
  type ErrorList,
} from '../../../../machinery/validation/index.js';

/** The names of a pod without resource claims: shared, never written. */
export const noClaimNames: ReadonlySet<string> = new Set();

/** gatherPodResourceClaimNames: the non-empty names of the pod's claims. */
export function podClaimNames(claims: readonly PodResourceClaim[] | null | undefined): ReadonlySet<string> {
  if (claims == null || claims.length === 0) return noClaimNames;
  const names = new Set<string>();
  for (const c of claims) if ((c.name ?? '') !== '') names.add(c.name ?? '');
  return names;
}

/** Go's %#v of a *string: a placeholder address for a set pointer, as Go shows some address. */
const goPointer = (v: string | null | undefined): string =>
  v == null ? '(*string)(nil)' : '(*string)(0xc000000000)';

/** field.Invalid of a whole claim, which kube prints with Go's %#v of the internal struct. */
function invalidClaim(path: FieldPath, claim: PodResourceClaim, detail: string): FieldError {
  const value =
    `core.PodResourceClaim{Name:${goQuote(claim.name ?? '')}, ` +
    `ResourceClaimName:${goPointer(claim.resourceClaimName)}, ` +
    `ResourceClaimTemplateName:${goPointer(claim.resourceClaimTemplateName)}}`;
  return new FieldError({
    type: 'FieldValueInvalid',
    field: path.toString(),
    badValue: omitValue,
    detail: `${value}: ${detail}`,
  });
}

const invalidAll = (messages: readonly string[], value: string, path: FieldPath): ErrorList =>
  messages.map((msg) => FieldError.invalid(path, value, msg));

/**
 * validatePodResourceClaims: named (a DNS label, once each), from exactly one source; a static
 * pod's (`staticPod`, a pod with the mirror annotation) refused each on the empty path, `[]`.
 */
export function validatePodResourceClaims(
  claims: readonly PodResourceClaim[] | null | undefined,
  path: FieldPath,
  staticPod = false,
): ErrorList {
  if (claims == null || claims.length === 0) return [];
  const errs: ErrorList = [];
  const seen = new Set<string>();
  claims.forEach((claim, i) => {
    if (staticPod) {
      errs.push(FieldError.forbidden(FieldPath.of(''), 'static pods do not support resource claims'));
      return;
    }
    const p = path.index(i);
    const name = claim.name ?? '';
    if (name === '') errs.push(FieldError.required(p.child('name')));
    else if (seen.has(name)) errs.push(FieldError.duplicate(p.child('name'), name));
    else {
      errs.push(...invalidAll(isDNS1123Label(name), name, p.child('name')));
      seen.add(name);
    }
    const claimName = claim.resourceClaimName ?? undefined;
    const templateName = claim.resourceClaimTemplateName ?? undefined;
    if (claimName !== undefined && templateName !== undefined)
      errs.push(
        invalidClaim(
          p,
          claim,
          'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
        ),
      );
    if (claimName === undefined && templateName === undefined)
      errs.push(
        invalidClaim(p, claim, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'),
      );
    if (claimName !== undefined)
      errs.push(...invalidAll(nameIsDNSSubdomain(claimName, false), claimName, p.child('resourceClaimName')));
    if (templateName !== undefined)
      errs.push(
        ...invalidAll(
          nameIsDNSSubdomain(templateName, false),
          templateName,
          p.child('resourceClaimTemplateName'),
        ),
      );
  });
  return errs;
}

function notInPod(path: FieldPath, name: string, podClaims: ReadonlySet<string>): FieldError {
  const names = [...podClaims].sort(compareGoStrings);
  const detail =
    'must be one of the names in pod.spec.resourceClaims' +
    (names.length === 0 ? ' which is empty' : `: ${names.join(', ')}`);
  return new FieldError({ type: 'FieldValueNotFound', field: path.toString(), badValue: name, detail });
}

/**
 * validateResourceClaimNames: each entry names one of the pod's claims, and neither the claim nor
 * the same request of it twice (a whole claim overlaps any request of it named before).
 */
export function validateResourceClaimNames(
  claims: readonly ResourceClaim[] | null | undefined,
  podClaims: ReadonlySet<string>,
  path: FieldPath,
): ErrorList {
  if (claims == null || claims.length === 0) return [];
  const errs: ErrorList = [];
  const names = new Set<string>();
  claims.forEach((claim, i) => {
    const p = path.index(i);
    const name = claim.name ?? '';
    if (name === '') {
      errs.push(FieldError.required(p));
      return;
    }
    if (names.has(name)) errs.push(FieldError.duplicate(p, name));
    else {
      const request = claim.request ?? '';
      let key = name;
      if (request !== '') {
        errs.push(...invalidAll(isDNS1123Label(request), request, p.child('request')));
        key += `/${request}`;
      }
      if (names.has(key)) errs.push(FieldError.duplicate(p, key));
      else if (request === '')
        for (const other of names) {
          const slash = other.indexOf('/');
          if (slash >= 0 && other.slice(0, slash) === name) errs.push(FieldError.duplicate(p, name));
        }
      names.add(key);
    }
    if (!podClaims.has(name)) errs.push(notInPod(p, name, podClaims));
  });
  return errs;
}

/** validatePodResourceClaimStatuses: one status per claim of the spec, each generated name a DNS subdomain. */
export function validatePodResourceClaimStatuses(
  statuses: readonly PodResourceClaimStatus[] | null | undefined,
  podClaims: readonly PodResourceClaim[] | null | undefined,
  path: FieldPath,
): ErrorList {
  if (statuses == null || statuses.length === 0) return [];
  const errs: ErrorList = [];
  const seen = new Set<string>();
  statuses.forEach((status, i) => {
    const p = path.index(i).child('name');
    const name = status.name ?? '';
    if (!(podClaims ?? []).some((c) => (c.name ?? '') === name))
      errs.push(FieldError.invalid(p, name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (seen.has(name)) errs.push(FieldError.duplicate(p, name));
    else seen.add(name);
    const generated = status.resourceClaimName ?? undefined;
    // kube reports the generated name's faults at .name (the *string value is printed dereferenced).
    if (generated !== undefined) errs.push(...invalidAll(nameIsDNSSubdomain(generated, false), generated, p));
  });
  return errs;
}
