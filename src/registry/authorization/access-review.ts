// The access reviews (pkg/registry/authorization/{subjectaccessreview,selfsubjectaccessreview,
// localsubjectaccessreview}/rest.go and pkg/apis/authorization/validation): POST a request's
// attributes, get the authorizer's decision back in status. Nothing is stored.
import type {
  AccessReview,
  SubjectAccessReviewSpec,
  SubjectAccessReviewStatus,
} from '../../api/authorization/v1/reviews.js';
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newInvalid } from '../../machinery/errors/index.js';
import { AuthorizerError, type AuthorizationResult, type Authorizer } from '../rest/authorizer.js';
import { validateAccessReview, type AccessReviewKindName } from './access-review-validation.js';
import { attributesFrom, buildEvaluationError } from './attributes-from.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext, UserInfo } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';
import { ReviewREST } from '../rest/review-rest.js';

const group = 'authorization.k8s.io';

/** Who a review asks about: the caller (self reviews) or the subject its spec names. */
type Subject = 'self' | 'spec';

function subjectOf(spec: SubjectAccessReviewSpec): UserInfo {
  return {
    name: spec.user ?? '',
    groups: spec.groups ?? [],
    ...(spec.uid === undefined ? {} : { uid: spec.uid }),
    ...(spec.extra === undefined ? {} : { extra: spec.extra }),
  };
}

export { validateAccessReviewSpec } from './access-review-validation.js';

interface AccessReviewKind {
  readonly kind: AccessReviewKindName;
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
    const errs = validateAccessReview(review, this.#kind.kind);
    if (errs.length > 0) throw newInvalid({ group, kind: this.#kind.kind }, '', errs);
    if (this.#kind.namespaced) {
      if (ctx.namespace === '') throw newBadRequest(`namespace is required on this type: ${ctx.namespace}`);
      if ((review.metadata?.namespace ?? '') !== ctx.namespace)
        throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${ctx.namespace}`);
    }
    if (opts.validate !== undefined) await opts.validate(ctx, review);
    const user = this.#kind.subject === 'self' ? ctx.user : subjectOf(spec);
    const attrs = attributesFrom(user, spec);
    let result: AuthorizationResult;
    let evaluationError: string | undefined;
    try {
      result = await this.#authorizer.authorize(attrs);
    } catch (err) {
      // kube reports the authorizers' errors in the answer, with the decision they came with.
      if (!(err instanceof AuthorizerError)) throw err;
      result = { decision: err.decision, reason: err.reason };
      evaluationError = err.message;
    }
    const evaluation = buildEvaluationError(evaluationError, attrs);
    const status: SubjectAccessReviewStatus = {
      allowed: result.decision === 'Allow',
      ...(result.decision === 'Deny' ? { denied: true } : {}),
      ...(result.reason === '' ? {} : { reason: result.reason }),
      ...(evaluation === '' ? {} : { evaluationError: evaluation }),
    };
    return { ...review, spec, status };
  }
}

export const newSubjectAccessReviewREST = (a: Authorizer): AccessReviewREST =>
  new AccessReviewREST(a, { kind: 'SubjectAccessReview', subject: 'spec', namespaced: false });
export const newSelfSubjectAccessReviewREST = (a: Authorizer): AccessReviewREST =>
  new AccessReviewREST(a, { kind: 'SelfSubjectAccessReview', subject: 'self', namespaced: false });
export const newLocalSubjectAccessReviewREST = (a: Authorizer): AccessReviewREST =>
  new AccessReviewREST(a, { kind: 'LocalSubjectAccessReview', subject: 'spec', namespaced: true });
