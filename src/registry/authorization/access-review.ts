// The access reviews (pkg/registry/authorization/{subjectaccessreview,selfsubjectaccessreview,
// localsubjectaccessreview}/rest.go and pkg/apis/authorization/validation): POST a request's
// attributes, get the authorizer's decision back in status. Nothing is stored.
import type { AccessReview, SubjectAccessReviewSpec } from '../../api/authorization/v1/reviews.js';
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newInvalid } from '../../machinery/errors/index.js';
import { FieldError, FieldPath, type ErrorList } from '../../machinery/validation/index.js';
import type { AuthorizationAttributes, Authorizer } from '../rest/authorizer.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext, UserInfo } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';
import { ReviewREST } from '../rest/review-rest.js';

const group = 'authorization.k8s.io';

/** Who a review asks about: the caller (self reviews) or the subject its spec names. */
type Subject = 'self' | 'spec';

/** ValidateSelfSubjectAccessReviewSpec / ValidateSubjectAccessReviewSpec. */
export function validateAccessReviewSpec(spec: SubjectAccessReviewSpec, subject: Subject): ErrorList {
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
  return errs;
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
function attributesOf(user: UserInfo, spec: SubjectAccessReviewSpec): AuthorizationAttributes {
  const r = spec.resourceAttributes ?? undefined;
  if (r !== undefined)
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', resourceRequest: false, path: n.path ?? '' };
}

function subjectOf(spec: SubjectAccessReviewSpec): UserInfo {
  return {
    name: spec.user ?? '',
    groups: spec.groups ?? [],
    ...(spec.uid === undefined ? {} : { uid: spec.uid }),
    ...(spec.extra === undefined ? {} : { extra: spec.extra }),
  };
}

interface AccessReviewKind {
  readonly kind: 'SubjectAccessReview' | 'SelfSubjectAccessReview' | 'LocalSubjectAccessReview';
  readonly subject: Subject;
  readonly namespaced: boolean;
}

/** One of the three access reviews over an authorizer. */
export class AccessReviewREST extends ReviewREST<AccessReview> {
  readonly #authorizer: Authorizer;
  readonly #kind: AccessReviewKind;

  constructor(authorizer: Authorizer, kind: AccessReviewKind) {
    super({
      newObject: () => ({ apiVersion: `${group}/v1`, kind: kind.kind, spec: {} }),
      namespaced: kind.namespaced,
    });
    this.#authorizer = authorizer;
    this.#kind = kind;
  }

  async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    const review = obj as AccessReview;
    const spec: SubjectAccessReviewSpec = (review as Partial<AccessReview>).spec ?? {};
    const errs = validateAccessReviewSpec(spec, this.#kind.subject);
    if (errs.length > 0) throw newInvalid({ group, kind: this.#kind.kind }, '', errs);
    if (this.#kind.namespaced) {
      const attrs = spec.resourceAttributes ?? undefined;
      if (attrs === undefined || (attrs.namespace ?? '') !== ctx.namespace)
        throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${ctx.namespace}`);
    }
    if (opts.validate !== undefined) await opts.validate(ctx, review);
    const user = this.#kind.subject === 'self' ? ctx.user : subjectOf(spec);
    const { decision, reason } = await this.#authorizer.authorize(attributesOf(user, spec));
    return {
      ...review,
      spec,
      status: {
        allowed: decision === 'Allow',
        ...(decision === 'Deny' ? { denied: true } : {}),
        ...(reason === '' ? {} : { reason }),
      },
    };
  }
}

export const newSubjectAccessReviewREST = (a: Authorizer): AccessReviewREST =>
  new AccessReviewREST(a, { kind: 'SubjectAccessReview', subject: 'spec', namespaced: false });
export const newSelfSubjectAccessReviewREST = (a: Authorizer): AccessReviewREST =>
  new AccessReviewREST(a, { kind: 'SelfSubjectAccessReview', subject: 'self', namespaced: false });
export const newLocalSubjectAccessReviewREST = (a: Authorizer): AccessReviewREST =>
  new AccessReviewREST(a, { kind: 'LocalSubjectAccessReview', subject: 'spec', namespaced: true });
