// pkg/apis/authorization/validation/validation.go: the three access reviews' checks, in kube's order
// (the spec, the selectors of spec.resourceAttributes, the metadata, and for
// LocalSubjectAccessReview the namespace and the non-resource attributes).
import type {
  AccessReview,
  ResourceAttributes,
  SubjectAccessReviewSpec,
} from '../../api/authorization/v1/reviews.js';
import type { LabelSelectorRequirement } from '../../api/meta/v1/label-selector.js';
import type { ObjectMeta } from '../../api/meta.js';
import { validateLabelSelectorRequirement } from '../../machinery/labels/index.js';
import { FieldError, FieldPath, type ErrorList } from '../../machinery/validation/index.js';

/** The review kinds: who is asked about, and whether the review lives in a namespace. */
export type AccessReviewKindName =
  'SubjectAccessReview' | 'SelfSubjectAccessReview' | 'LocalSubjectAccessReview';

const knownOperators: ReadonlySet<string> = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** ValidateFieldSelectorRequirement with AllowUnknownOperatorInRequirement. */
function validateFieldRequirement(r: LabelSelectorRequirement, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (r.key === '') errs.push(FieldError.required(path.child('key'), 'must be specified'));
  const count = r.values?.length ?? 0;
  if ((r.operator === 'In' || r.operator === 'NotIn') && count === 0)
    errs.push(
      FieldError.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"),
    );
  if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && count > 0)
    errs.push(
      FieldError.forbidden(
        path.child('values'),
        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ),
    );
  return errs;
}

/** ValidateLabelSelectorRequirement with AllowUnknownOperatorInRequirement. */
function validateLabelRequirement(r: LabelSelectorRequirement, path: FieldPath): ErrorList {
  const errs = validateLabelSelectorRequirement(r, path);
  if (knownOperators.has(r.operator)) return errs;
  // Newer clients may send operators this server does not know: kube lets them through.
  const operatorPath = path.child('operator').toString();
  return errs.filter((e) => e.field !== operatorPath);
}

type SelectorAttributes = NonNullable<ResourceAttributes['fieldSelector']>;

function validateSelectorAttributes(
  selector: SelectorAttributes | null | undefined,
  path: FieldPath,
  requirement: (r: LabelSelectorRequirement, p: FieldPath) => ErrorList,
): ErrorList {
  if (selector === null || selector === undefined) return [];
  const errs: ErrorList = [];
  const raw = selector.rawSelector ?? '';
  const requirements = selector.requirements ?? [];
  if (raw !== '' && requirements.length > 0)
    errs.push(
      FieldError.invalid(
        path.child('rawSelector'),
        raw,
        'may not specified at the same time as requirements',
      ),
    );
  if (raw === '' && requirements.length === 0)
    errs.push(
      FieldError.required(
        path.child('requirements'),
        `when ${path.toString()} is specified, requirements or rawSelector is required`,
      ),
    );
  requirements.forEach((r, i) => errs.push(...requirement(r, path.child('requirements').index(i))));
  return errs;
}

/** validateResourceAttributes: the selectors, under `spec.resourceAttributes`. */
function validateResourceAttributes(attrs: ResourceAttributes | null | undefined): ErrorList {
  if (attrs === null || attrs === undefined) return [];
  const path = FieldPath.of('spec.resourceAttributes');
  return [
    ...validateSelectorAttributes(attrs.fieldSelector, path.child('fieldSelector'), validateFieldRequirement),
    ...validateSelectorAttributes(attrs.labelSelector, path.child('labelSelector'), validateLabelRequirement),
  ];
}

/** ValidateSelfSubjectAccessReviewSpec / ValidateSubjectAccessReviewSpec. */
export function validateAccessReviewSpec(spec: SubjectAccessReviewSpec, subject: 'self' | 'spec'): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.of('spec');
  const resource = spec.resourceAttributes ?? undefined;
  const nonResource = spec.nonResourceAttributes ?? undefined;
  if (resource !== undefined && nonResource !== undefined)
    errs.push(
      FieldError.invalid(
        path.child('nonResourceAttributes'),
        nonResource,
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  if (resource === undefined && nonResource === undefined)
    errs.push(
      FieldError.invalid(
        path.child('resourceAttributes'),
        null,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  if (subject === 'spec' && (spec.user ?? '') === '' && (spec.groups ?? []).length === 0)
    errs.push(
      FieldError.invalid(
        path.child('user'),
        spec.user ?? '',
        'at least one of user or group must be specified',
      ),
    );
  errs.push(...validateResourceAttributes(resource));
  return errs;
}

// Go's zero value, with kube's semantic equality (an empty map or list equals a missing one).
const isZero = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

/** The metadata check: empty but for managedFields (and the namespace of a local review). */
function validateMetadata(meta: ObjectMeta | undefined, kind: AccessReviewKindName): ErrorList {
  const local = kind === 'LocalSubjectAccessReview';
  const m = (meta ?? {}) as Record<string, unknown>;
  const empty = Object.entries(m).every(
    ([k, v]) => k === 'managedFields' || (local && k === 'namespace') || isZero(v),
  );
  if (empty) return [];
  const detail = local ? 'must be empty except for namespace' : 'must be empty';
  return [FieldError.invalid(FieldPath.of('metadata'), meta ?? {}, detail)];
}

/** ValidateSubjectAccessReview, ValidateSelfSubjectAccessReview and ValidateLocalSubjectAccessReview. */
export function validateAccessReview(review: AccessReview, kind: AccessReviewKindName): ErrorList {
  const spec = (review as Partial<AccessReview>).spec ?? {};
  const errs = validateAccessReviewSpec(spec, kind === 'SelfSubjectAccessReview' ? 'self' : 'spec');
  errs.push(...validateMetadata(review.metadata, kind));
  if (kind !== 'LocalSubjectAccessReview') return errs;
  const namespace = review.metadata?.namespace ?? '';
  const resource = spec.resourceAttributes ?? undefined;
  if (resource !== undefined && (resource.namespace ?? '') !== namespace)
    errs.push(
      FieldError.invalid(
        FieldPath.of('spec.resourceAttributes.namespace'),
        resource.namespace ?? '',
        'must match metadata.namespace',
      ),
    );
  const nonResource = spec.nonResourceAttributes ?? undefined;
  if (nonResource !== undefined)
    errs.push(
      FieldError.invalid(
        FieldPath.of('spec.nonResourceAttributes'),
        nonResource,
        'disallowed on this kind of request',
      ),
    );
  return errs;
}
