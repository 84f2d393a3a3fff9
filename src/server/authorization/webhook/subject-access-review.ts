// The SubjectAccessReview the authorization webhook sends and reads back
// (k8s.io/apiserver/plugin/pkg/authorizer/webhook/webhook.go: Authorize, resourceAttributesFrom,
// fieldSelectorToAuthorizationAPI, labelSelectorToAuthorizationAPI and the v1beta1 conversions).
import type {
  FieldSelectorRequirement,
  LabelSelectorRequirement,
} from '../../../api/meta/v1/label-selector.js';
import type { Requirement } from '../../../machinery/labels/index.js';
import type { FieldRequirement } from '../../../machinery/fields/index.js';
import type { AuthorizationAttributes } from '../../../registry/rest/authorizer.js';
import { fieldSelectorOf, labelSelectorOf } from '../../../registry/rest/authorizer-selectors.js';

/** --authorization-webhook-version / subjectAccessReviewVersion: what kube can send. */
export const subjectAccessReviewVersions = ['v1', 'v1beta1'] as const;
export type SubjectAccessReviewVersion = (typeof subjectAccessReviewVersions)[number];

export function isSubjectAccessReviewVersion(v: string): v is SubjectAccessReviewVersion {
  return (subjectAccessReviewVersions as readonly string[]).includes(v);
}

/** subjectAccessReviewInterfaceFromConfig's error for another version. */
export const unsupportedVersionError = (version: string): string =>
  `unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`;

/** The v1 spec, its members in Go's field order (the order is part of the cache key, as in kube). */
export interface SubjectAccessReviewSpecV1 {
  resourceAttributes?: {
    namespace?: string;
    verb?: string;
    group?: string;
    version?: string;
    resource?: string;
    subresource?: string;
    name?: string;
    fieldSelector?: { requirements: FieldSelectorRequirement[] };
    labelSelector?: { requirements: LabelSelectorRequirement[] };
  };
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

export interface SubjectAccessReviewStatusV1 {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

// Go's omitempty for strings.
const str = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v);

/** fieldSelectorToAuthorizationAPI: `=`/`==`/`in` → In, `!=`/`notin` → NotIn, one value each. */
function fieldRequirementsOf(reqs: readonly FieldRequirement[]): FieldSelectorRequirement[] {
  return reqs.map((r) => ({
    key: r.field,
    operator: r.operator === '=' ? 'In' : 'NotIn',
    values: [r.value],
  }));
}

const labelOperators: Partial<Record<Requirement['operator'], LabelSelectorRequirement['operator']>> = {
  '=': 'In',
  '==': 'In',
  in: 'In',
  '!=': 'NotIn',
  notin: 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

/** labelSelectorToAuthorizationAPI: the operators the API has; Gt and Lt are dropped (a broader check). */
function labelRequirementsOf(reqs: readonly Requirement[]): LabelSelectorRequirement[] {
  const out: LabelSelectorRequirement[] = [];
  for (const r of reqs) {
    const operator = labelOperators[r.operator];
    if (operator === undefined) continue;
    out.push({ key: r.key, operator, ...(r.values.length > 0 ? { values: [...r.values] } : {}) });
  }
  return out;
}

/** The review's spec for a request, as kube's Authorize builds it. */
export function subjectAccessReviewSpec(attrs: AuthorizationAttributes): SubjectAccessReviewSpecV1 {
  const spec: SubjectAccessReviewSpecV1 = {};
  if (attrs.resourceRequest) {
    const fields = fieldRequirementsOf(fieldSelectorOf(attrs).requirements);
    const labels = labelRequirementsOf(labelSelectorOf(attrs).requirements);
    spec.resourceAttributes = dropUndefined<NonNullable<SubjectAccessReviewSpecV1['resourceAttributes']>>({
      namespace: str(attrs.namespace),
      verb: str(attrs.verb),
      group: str(attrs.apiGroup),
      version: str(attrs.apiVersion),
      resource: str(attrs.resource),
      subresource: str(attrs.subresource),
      name: str(attrs.name),
      fieldSelector: fields.length > 0 ? { requirements: fields } : undefined,
      labelSelector: labels.length > 0 ? { requirements: labels } : undefined,
    });
  } else {
    spec.nonResourceAttributes = dropUndefined<
      NonNullable<SubjectAccessReviewSpecV1['nonResourceAttributes']>
    >({ path: str(attrs.path), verb: str(attrs.verb) });
  }
  const u = attrs.user;
  if (u.name !== '') spec.user = u.name;
  if (u.groups.length > 0) spec.groups = [...u.groups];
  if (u.extra !== undefined && Object.keys(u.extra).length > 0)
    spec.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  const uid = str(u.uid);
  if (uid !== undefined) spec.uid = uid;
  return spec;
}

function dropUndefined<T extends object>(o: { [K in keyof T]?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The request body in the version configured (v1beta1 names the groups `group`). */
export function subjectAccessReviewBody(
  spec: SubjectAccessReviewSpecV1,
  version: SubjectAccessReviewVersion,
): string {
  let wire: Record<string, unknown> = { ...spec };
  if (version === 'v1beta1') {
    const { groups, extra, uid, ...rest } = spec;
    wire = dropUndefined<Record<string, unknown>>({ ...rest, group: groups, extra, uid });
  }
  return JSON.stringify({
    kind: 'SubjectAccessReview',
    apiVersion: `authorization.k8s.io/${version}`,
    metadata: { creationTimestamp: null },
    spec: wire,
    status: { allowed: false },
  });
}

/** status of the answer (both versions share its shape); absent members read as Go's zero values. */
export function subjectAccessReviewStatus(text: string): SubjectAccessReviewStatusV1 {
  const review = JSON.parse(text) as { status?: Partial<Record<string, unknown>> } | null;
  const s = review?.status ?? {};
  return {
    allowed: s['allowed'] === true,
    denied: s['denied'] === true,
    reason: typeof s['reason'] === 'string' ? s['reason'] : '',
    evaluationError: typeof s['evaluationError'] === 'string' ? s['evaluationError'] : '',
  };
}
