// SelfSubjectRulesReview (pkg/registry/authorization/selfsubjectrulesreview/rest.go): the rules
// the caller holds in a namespace, as the authorizer lists them (`kubectl auth can-i --list`).
import type { SelfSubjectRulesReview } from '../../api/authorization/v1/reviews.js';
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import type { Authorizer } from '../rest/authorizer.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';
import { ReviewREST } from '../rest/review-rest.js';

export class SelfSubjectRulesReviewREST extends ReviewREST<SelfSubjectRulesReview> {
  readonly #authorizer: Authorizer;

  constructor(authorizer: Authorizer) {
    super({
      newObject: () => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} }),
    });
    this.#authorizer = authorizer;
  }

  async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    const review = obj as SelfSubjectRulesReview;
    const spec = (review as Partial<SelfSubjectRulesReview>).spec ?? {};
    const namespace = spec.namespace ?? '';
    if (namespace === '') throw newBadRequest('no namespace on request');
    if (opts.validate !== undefined) await opts.validate(ctx, review);
    const rules = await this.#authorizer.rulesFor(ctx.user, namespace);
    return {
      ...review,
      spec,
      status: {
        resourceRules: rules.resourceRules.map((r) => ({
          verbs: [...r.verbs],
          apiGroups: [...r.apiGroups],
          resources: [...r.resources],
          ...(r.resourceNames === undefined ? {} : { resourceNames: [...r.resourceNames] }),
        })),
        nonResourceRules: rules.nonResourceRules.map((r) => ({
          verbs: [...r.verbs],
          nonResourceURLs: [...r.nonResourceURLs],
        })),
        incomplete: rules.incomplete,
        ...(rules.evaluationError === undefined ? {} : { evaluationError: rules.evaluationError }),
      },
    } satisfies SelfSubjectRulesReview;
  }
}
