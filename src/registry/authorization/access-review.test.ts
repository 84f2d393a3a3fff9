import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccessReview } from '../../api/authorization/v1/reviews.js';
import { StatusError } from '../../machinery/errors/index.js';
import { AuthorizerError, type AuthorizationAttributes, type Authorizer } from '../rest/authorizer.js';
import { fieldSelectorOf, labelSelectorOf } from '../rest/authorizer-selectors.js';
import type { RequestContext } from '../rest/context.js';
import {
  newLocalSubjectAccessReviewREST,
  newSelfSubjectAccessReviewREST,
  newSubjectAccessReviewREST,
} from './access-review.js';

/** Records what it was asked; answers Allow, or throws `fail`. */
function recording(fail?: AuthorizerError): { seen: AuthorizationAttributes[]; authorizer: Authorizer } {
  const seen: AuthorizationAttributes[] = [];
  return {
    seen,
    authorizer: {
      authorize: (attrs) => {
        seen.push(attrs);
        return fail === undefined
          ? Promise.resolve({ decision: 'Allow', reason: 'ok' })
          : Promise.reject(fail);
      },
      rulesFor: () => Promise.reject(new Error('unused')),
    },
  };
}

const ctx = (namespace = ''): RequestContext => ({
  signal: new AbortController().signal,
  namespace,
  user: { name: 'me', groups: ['g'] },
  addWarning: () => undefined,
});

const review = (
  kind: string,
  spec: AccessReview['spec'],
  metadata: AccessReview['metadata'] = {},
): AccessReview => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind,
  metadata,
  spec,
});

async function invalidCauses(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err.status.message ?? '';
  }
  assert.fail('expected an Invalid error');
}

const create = { options: {} };

describe('access reviews', () => {
  it('validates selectors in spec.resourceAttributes with kube’s messages', async () => {
    const rest = newSubjectAccessReviewREST(recording().authorizer);
    const msg = await invalidCauses(
      rest.create(
        ctx(),
        review('SubjectAccessReview', {
          user: 'u',
          resourceAttributes: {
            verb: 'list',
            resource: 'pods',
            fieldSelector: {
              rawSelector: 'a=b',
              requirements: [{ key: 'a', operator: 'In', values: ['b'] }],
            },
            labelSelector: {},
          },
        }),
        create,
      ),
    );
    assert.equal(
      msg,
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements, spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required]',
    );
    const reqs = await invalidCauses(
      rest.create(
        ctx(),
        review('SubjectAccessReview', {
          user: 'u',
          resourceAttributes: {
            fieldSelector: {
              requirements: [
                { key: '', operator: 'In' },
                { key: 'x', operator: 'Fancy' },
              ],
            },
            labelSelector: {
              requirements: [
                { key: 'app', operator: 'Exists', values: ['v'] },
                { key: 'k', operator: 'Later' },
              ],
            },
          },
        }),
        create,
      ),
    );
    assert.equal(
      reqs,
      "SubjectAccessReview.authorization.k8s.io \"\" is invalid: [spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified, spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist']",
    );
  });

  it('wants empty metadata, and a local review’s namespaces to agree', async () => {
    const self = newSelfSubjectAccessReviewREST(recording().authorizer);
    assert.match(
      await invalidCauses(
        self.create(
          ctx(),
          review(
            'SelfSubjectAccessReview',
            { nonResourceAttributes: { path: '/', verb: 'get' } },
            { name: 'x' },
          ),
          create,
        ),
      ),
      /is invalid: metadata: Invalid value: .*: must be empty$/,
    );
    const local = newLocalSubjectAccessReviewREST(recording().authorizer);
    const msg = await invalidCauses(
      local.create(
        ctx('ns'),
        review(
          'LocalSubjectAccessReview',
          {
            user: 'u',
            resourceAttributes: { namespace: 'other', verb: 'get' },
            nonResourceAttributes: { path: '/' },
          },
          { namespace: 'ns', labels: { a: 'b' } },
        ),
        create,
      ),
    );
    assert.match(msg, /metadata: Invalid value: .*: must be empty except for namespace/);
    assert.match(
      msg,
      /spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace/,
    );
    assert.match(msg, /spec.nonResourceAttributes: Invalid value: .*: disallowed on this kind of request\]$/);
  });

  it('hands the selectors to the authorizer (raw parsed, requirements converted) and reports dropped ones', async () => {
    const r = recording();
    const rest = newSubjectAccessReviewREST(r.authorizer);
    const out = (await rest.create(
      ctx(),
      review('SubjectAccessReview', {
        user: 'u',
        resourceAttributes: {
          verb: 'list',
          resource: 'pods',
          fieldSelector: {
            requirements: [
              { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
              { key: 'a', operator: 'NotIn', values: ['b'] },
              { key: 'c', operator: 'Exists' },
            ],
          },
          labelSelector: { rawSelector: 'app=web,tier' },
        },
      }),
      create,
    )) as AccessReview;
    const attrs = r.seen[0];
    assert.ok(attrs !== undefined);
    assert.equal(attrs.apiVersion, '*');
    assert.deepEqual(fieldSelectorOf(attrs), {
      requirements: [
        { field: 'spec.nodeName', operator: '=', value: 'n1' },
        { field: 'a', operator: '!=', value: 'b' },
      ],
      error: 'fieldSelectors do not yet support Exists',
    });
    assert.deepEqual(
      labelSelectorOf(attrs).requirements.map((q) => [q.key, q.operator, [...q.values]]),
      [
        ['app', '=', ['web']],
        ['tier', 'exists', []],
      ],
    );
    assert.deepEqual(out.status, {
      allowed: true,
      reason: 'ok',
      evaluationError: 'spec.resourceAttributes.fieldSelector partially ignored due to parse error',
    });
  });

  it('reports an authorizer error as evaluationError with the decision it came with', async () => {
    const failing = recording(new AuthorizerError([new Error('webhook down')], { reason: 'rbac says no' }));
    const out = (await newSelfSubjectAccessReviewREST(failing.authorizer).create(
      ctx(),
      review('SelfSubjectAccessReview', {
        resourceAttributes: { verb: 'list', resource: 'pods', labelSelector: { rawSelector: 'a in (' } },
      }),
      create,
    )) as AccessReview;
    assert.deepEqual(out.status, {
      allowed: false,
      reason: 'rbac says no',
      evaluationError: 'webhook down; spec.resourceAttributes.labelSelector ignored due to parse error',
    });
    const denying = recording(new AuthorizerError([new Error('both')], { decision: 'Deny' }));
    const denied = (await newSelfSubjectAccessReviewREST(denying.authorizer).create(
      ctx(),
      review('SelfSubjectAccessReview', { nonResourceAttributes: { path: '/x', verb: 'get' } }),
      create,
    )) as AccessReview;
    assert.deepEqual(denied.status, { allowed: false, denied: true, evaluationError: 'both' });
  });
});
