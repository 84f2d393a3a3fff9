// SelfSubjectReview (pkg/registry/authentication/selfsubjectreview/rest.go): answers with the
// user the request was authenticated as (`kubectl auth whoami`). Nothing is stored.
import type { SelfSubjectReview } from '../../api/authentication/v1/self-subject-review.js';
import type { KubeObject } from '../../api/meta.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';
import { ReviewREST } from '../rest/review-rest.js';

export class SelfSubjectReviewREST extends ReviewREST<SelfSubjectReview> {
  constructor() {
    super({ newObject: () => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }) });
  }

  async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    const review = obj as SelfSubjectReview;
    if (opts.validate !== undefined) await opts.validate(ctx, review);
    const user = ctx.user;
    return {
      ...review,
      status: {
        userInfo: {
          username: user.name,
          ...(user.uid === undefined ? {} : { uid: user.uid }),
          groups: [...user.groups],
          ...(user.extra === undefined
            ? {}
            : { extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) }),
        },
      },
    } satisfies SelfSubjectReview;
  }
}
