import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  AuthorizerError,
  type AuthorizationAttributes,
  type Authorizer,
} from '../../../registry/rest/authorizer.js';
import { unionAuthorizer } from '../modes.js';
import { compileMatchConditions } from './match-conditions.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from './webhook-authorizer.js';

interface Review {
  apiVersion: string;
  kind: string;
  spec: Record<string, unknown> & {
    user?: string;
    resourceAttributes?: Record<string, unknown>;
    nonResourceAttributes?: Record<string, unknown>;
  };
}

/** The fake service: answers by the verb and the resource; `plan` can make it fail first. */
describe('WebhookAuthorizer', () => {
  let server: Server;
  let url: string;
  const reviews: Review[] = [];
  let failures: number[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        reviews.push(review);
        const failure = failures.shift();
        if (failure !== undefined) {
          res.statusCode = failure;
          res.end();
          return;
        }
        const r = review.spec.resourceAttributes ?? {};
        const status =
          r['resource'] === 'pods'
            ? { allowed: true, reason: 'pods are fine' }
            : r['resource'] === 'secrets'
              ? { allowed: false, denied: true, reason: 'no secrets' }
              : r['resource'] === 'both'
                ? { allowed: true, denied: true }
                : { allowed: false };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ...review, status }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    reviews.length = 0;
    failures = [];
  });

  const user = { name: 'ada', uid: '42', groups: ['dev'], extra: { scopes: ['a', 'b'] } };
  const res = (
    verb: string,
    resource: string,
    more: Partial<AuthorizationAttributes> = {},
  ): AuthorizationAttributes => ({
    user,
    verb,
    resourceRequest: true,
    namespace: 'ns',
    apiGroup: '',
    apiVersion: 'v1',
    resource,
    subresource: '',
    name: '',
    ...more,
  });
  let now = 0;
  const sleeps: number[] = [];
  const authorizer = (opts: Partial<WebhookAuthorizerOptions> = {}): WebhookAuthorizer =>
    new WebhookAuthorizer({
      target: { server: url },
      version: 'v1',
      authorizedTTLMs: 300_000,
      unauthorizedTTLMs: 30_000,
      now: () => now,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      ...opts,
    });

  it('sends the request as a v1 SubjectAccessReview and maps allowed, denied and neither', async () => {
    const a = authorizer();
    assert.deepEqual(await a.authorize(res('get', 'pods')), { decision: 'Allow', reason: 'pods are fine' });
    assert.deepEqual(await a.authorize(res('get', 'secrets')), { decision: 'Deny', reason: 'no secrets' });
    assert.deepEqual(await a.authorize(res('get', 'configmaps')), { decision: 'NoOpinion', reason: '' });
    assert.deepEqual(reviews[0], {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: 'ns', verb: 'get', version: 'v1', resource: 'pods' },
        user: 'ada',
        groups: ['dev'],
        extra: { scopes: ['a', 'b'] },
        uid: '42',
      },
      status: { allowed: false },
    });
  });

  it('sends a list’s selectors as requirements (kube 1.33), and non-resource requests by path', async () => {
    const a = authorizer();
    await a.authorize(
      res('list', 'configmaps', {
        fieldSelector: 'metadata.name=x,spec.nodeName!=n',
        labelSelector: 'app in (a,b),!gone,tier,n>1',
      }),
    );
    await a.authorize({ user, verb: 'get', resourceRequest: false, path: '/healthz' });
    assert.deepEqual(reviews[0]?.spec.resourceAttributes, {
      namespace: 'ns',
      verb: 'list',
      version: 'v1',
      resource: 'configmaps',
      fieldSelector: {
        requirements: [
          { key: 'metadata.name', operator: 'In', values: ['x'] },
          { key: 'spec.nodeName', operator: 'NotIn', values: ['n'] },
        ],
      },
      labelSelector: {
        requirements: [
          { key: 'app', operator: 'In', values: ['a', 'b'] },
          { key: 'gone', operator: 'DoesNotExist' },
          { key: 'tier', operator: 'Exists' },
        ],
      },
    });
    assert.deepEqual(reviews[1]?.spec.nonResourceAttributes, { path: '/healthz', verb: 'get' });
  });

  it('speaks v1beta1, whose groups are `group`', async () => {
    await authorizer({ version: 'v1beta1' }).authorize(res('get', 'pods'));
    const sent = reviews[0];
    assert.ok(sent !== undefined);
    assert.equal(sent.apiVersion, 'authorization.k8s.io/v1beta1');
    assert.deepEqual(sent.spec['group'], ['dev']);
    assert.equal(sent.spec['groups'], undefined);
  });

  it('caches allowed answers for the authorized TTL and the others for the unauthorized TTL', async () => {
    now = 0;
    const a = authorizer();
    await a.authorize(res('get', 'pods'));
    await a.authorize(res('get', 'configmaps'));
    await a.authorize(res('get', 'pods'));
    await a.authorize(res('get', 'configmaps'));
    assert.equal(reviews.length, 2);
    now = 30_000;
    await a.authorize(res('get', 'pods'));
    await a.authorize(res('get', 'configmaps'));
    assert.equal(reviews.length, 3);
    now = 300_000;
    await a.authorize(res('get', 'pods'));
    assert.equal(reviews.length, 4);
  });

  it('retries 500s with kube’s backoff, then has no opinion and reports the error', async () => {
    sleeps.length = 0;
    failures = [500, 500, 500, 500, 500];
    await assert.rejects(authorizer().authorize(res('get', 'pods')), (err: unknown) => {
      assert.ok(err instanceof AuthorizerError);
      assert.equal(err.decision, 'NoOpinion');
      assert.equal(err.message, 'the server responded with the status code 500');
      return true;
    });
    assert.equal(reviews.length, 5);
    assert.equal(sleeps.length, 4);
    assert.ok((sleeps[0] ?? 0) >= 500 && (sleeps[0] ?? 0) <= 600);
    failures = [500];
    assert.equal((await authorizer().authorize(res('get', 'pods'))).decision, 'Allow');
    failures = [403];
    reviews.length = 0;
    await assert.rejects(authorizer().authorize(res('get', 'pods')), AuthorizerError);
    assert.equal(reviews.length, 1);
  });

  it('names the service when it cannot be reached; failurePolicy Deny ends a union', async () => {
    const down = { target: { server: 'http://127.0.0.1:1/' } };
    await assert.rejects(
      authorizer(down).authorize(res('get', 'pods')),
      /^AuthorizerError: Post "http:\/\/127\.0\.0\.1:1\/": connect ECONNREFUSED/,
    );
    const allowAll: Authorizer = {
      authorize: () => Promise.resolve({ decision: 'Allow', reason: '' }),
      rulesFor: authorizer().rulesFor,
    };
    const noOpinion = unionAuthorizer([authorizer(down), allowAll]);
    assert.equal((await noOpinion.authorize(res('get', 'pods'))).decision, 'Allow');
    const deny = unionAuthorizer([authorizer({ ...down, failurePolicy: 'Deny' }), allowAll]);
    await assert.rejects(
      deny.authorize(res('get', 'pods')),
      (err: unknown) => err instanceof AuthorizerError && err.decision === 'Deny',
    );
  });

  it('denies with an error when the answer both allows and denies', async () => {
    await assert.rejects(authorizer().authorize(res('get', 'both')), (err: unknown) => {
      assert.ok(err instanceof AuthorizerError);
      assert.equal(err.decision, 'Deny');
      assert.equal(err.message, 'webhook subject access review returned both allow and deny response');
      return true;
    });
  });

  it('lists no rules: incomplete, with kube’s error', async () => {
    assert.deepEqual(await authorizer().rulesFor(), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
  });

  it('skips the webhook when a match condition is false, and fails when one errs', async () => {
    const compiled = await compileMatchConditions(
      ["has(request.resourceAttributes) && request.resourceAttributes.resource == 'pods'"],
      FieldPath.of('authorizers').index(0),
    );
    assert.ok(compiled.ok && compiled.matches !== undefined);
    const a = authorizer({ matchConditions: compiled.matches });
    assert.equal((await a.authorize(res('get', 'pods'))).decision, 'Allow');
    assert.deepEqual(await a.authorize(res('get', 'secrets')), { decision: 'NoOpinion', reason: '' });
    assert.equal(reviews.length, 1);
    const bad = await compileMatchConditions(['request.nope.x'], FieldPath.of('authorizers').index(0));
    assert.ok(bad.ok && bad.matches !== undefined);
    await assert.rejects(
      authorizer({ matchConditions: bad.matches }).authorize(res('get', 'pods')),
      /cel evaluation error: expression 'request.nope.x' resulted in error/,
    );
    const dup = await compileMatchConditions(['true', 'true', ' '], FieldPath.of('authorizers').index(1));
    assert.ok(!dup.ok);
    assert.deepEqual(
      dup.errors.map((e) => e.error()),
      [
        'authorizers[1].matchConditions[1].expression: Duplicate value: "true"',
        'authorizers[1].matchConditions[2].expression: Required value',
      ],
    );
  });
});
