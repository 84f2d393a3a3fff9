// ResourceQuota validation (ValidateResourceQuota, ValidateResourceQuotaUpdate,
// ValidateResourceQuotaStatusUpdate, validateResourceQuotaScopes and validateScopeSelector in
// pkg/apis/core/validation/validation.go).
import type { ResourceList } from '../../../api/core/v1/limit-range.js';
import type { ResourceQuota, ResourceQuotaSpec, ScopeSelector } from '../../../api/core/v1/resource-quota.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import {
  isStandardQuotaResourceName,
  sortedResources,
  validateResourceQuantityValue,
  validateResourceQuotaResourceName,
} from './resource-names.js';

/** helper.standardResourceQuotaScopes, with CrossNamespacePodAffinity. */
const standardScopes: ReadonlySet<string> = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
]);
const podComputeResources: ReadonlySet<string> = new Set([
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);
const conflictingPairs = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
] as const;

/** IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return resource === 'pods' || podComputeResources.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    default:
      return true;
  }
}

/** Every name and quantity of a resource list. */
function validateResourceList(list: ResourceList | undefined, path: FieldPath): ErrorList {
  return sortedResources(list).flatMap(([name, value]) => [
    ...validateResourceQuotaResourceName(name, path.key(name)),
    ...validateResourceQuantityValue(name, value, path.key(name)),
  ]);
}

function scopeErrors(
  scopes: Iterable<string>,
  hard: readonly string[],
  onError: (msg: string) => FieldError,
): ErrorList {
  const errs: ErrorList = [];
  for (const scope of scopes) {
    if (!standardScopes.has(scope)) errs.push(onError('unsupported scope'));
    for (const k of hard)
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k))
        errs.push(onError('unsupported scope applied to resource'));
  }
  return errs;
}

function conflicts(scopes: ReadonlySet<string>, error: () => FieldError): ErrorList {
  return conflictingPairs.filter(([a, b]) => scopes.has(a) && scopes.has(b)).map(() => error());
}

/** validateResourceQuotaScopes. */
function validateScopes(spec: ResourceQuotaSpec, path: FieldPath): ErrorList {
  const scopes = spec.scopes ?? [];
  if (scopes.length === 0) return [];
  const scopesPath = path.child('scopes');
  const hard = sortedResources(spec.hard).map(([k]) => k);
  const invalid = (msg: string): FieldError => FieldError.invalid(scopesPath, scopes, msg);
  return [
    ...scopeErrors(scopes, hard, invalid),
    ...conflicts(new Set(scopes), () => invalid('conflicting scopes')),
  ];
}

const existsOnly = new Set([
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
]);

/** validateScopedResourceSelectorRequirement. */
function validateScopeSelector(spec: ResourceQuotaSpec, selector: ScopeSelector, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const exprPath = path.child('scopeSelector', 'matchExpressions');
  const hard = sortedResources(spec.hard).map(([k]) => k);
  const seen = new Set<string>();
  for (const req of selector.matchExpressions ?? []) {
    const scope = req.scopeName;
    if (!standardScopes.has(scope))
      errs.push(FieldError.invalid(exprPath.child('scopeName'), scope, 'unsupported scope'));
    for (const k of hard)
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k))
        errs.push(FieldError.invalid(exprPath, selector, 'unsupported scope applied to resource'));
    if (existsOnly.has(scope) && req.operator !== 'Exists')
      errs.push(
        FieldError.invalid(
          exprPath.child('operator'),
          req.operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errs.push(
            FieldError.required(
              exprPath.child('values'),
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          );
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0)
          errs.push(
            FieldError.invalid(
              exprPath.child('values'),
              values,
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          );
        break;
      default:
        errs.push(
          FieldError.invalid(exprPath.child('operator'), req.operator, 'not a valid selector operator'),
        );
    }
    seen.add(scope);
  }
  errs.push(
    ...conflicts(seen, () => FieldError.invalid(exprPath, spec.scopes ?? null, 'conflicting scopes')),
  );
  return errs;
}

/** ValidateResourceQuotaSpec. */
export function validateResourceQuotaSpec(spec: ResourceQuotaSpec, path: FieldPath): ErrorList {
  return [
    ...validateResourceList(spec.hard, path.child('hard')),
    ...validateScopes(spec, path),
    ...(spec.scopeSelector === undefined ? [] : validateScopeSelector(spec, spec.scopeSelector, path)),
  ];
}

/** ValidateResourceQuota. */
export function validateResourceQuota(quota: ResourceQuota): ErrorList {
  const status = FieldPath.of('status');
  return [
    ...validateCoreObjectMeta(quota.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateResourceQuotaSpec(quota.spec ?? {}, FieldPath.of('spec')),
    ...validateResourceList(quota.status?.hard, status.child('hard')),
    ...validateResourceList(quota.status?.used, status.child('used')),
  ];
}

/** ValidateResourceQuotaUpdate: the spec again, and the scopes may not change. */
export function validateResourceQuotaUpdate(quota: ResourceQuota, old: ResourceQuota): ErrorList {
  const errs = [
    ...validateCoreObjectMetaUpdate(quota.metadata ?? {}, old.metadata ?? {}),
    ...validateResourceQuotaSpec(quota.spec ?? {}, FieldPath.of('spec')),
  ];
  const scopes = [...new Set(quota.spec?.scopes ?? [])].sort();
  const oldScopes = [...new Set(old.spec?.scopes ?? [])].sort();
  if (!jsonEqual(scopes, oldScopes))
    errs.push(
      FieldError.invalid(FieldPath.of('spec', 'scopes'), quota.spec?.scopes ?? null, 'field is immutable'),
    );
  return errs;
}

/** ValidateResourceQuotaStatusUpdate. */
export function validateResourceQuotaStatusUpdate(quota: ResourceQuota, old: ResourceQuota): ErrorList {
  const errs = validateCoreObjectMetaUpdate(quota.metadata ?? {}, old.metadata ?? {});
  if ((quota.metadata?.resourceVersion ?? '') === '')
    errs.push(FieldError.required(FieldPath.of('resourceVersion')));
  const status = FieldPath.of('status');
  errs.push(...validateResourceList(quota.status?.hard, status.child('hard')));
  errs.push(...validateResourceList(quota.status?.used, status.child('used')));
  return errs;
}
