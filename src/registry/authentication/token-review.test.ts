import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TokenReview } from '../../api/authentication/v1/token-review.js';
import { StatusError } from '../../machinery/errors/index.js';
import { testContext } from '../generic/testing/widgets.js';
import { TokenReviewREST, type TokenReviewAuthenticator, type TokenReviewResult } from './token-review.js';

const ctx = testContext('');
const review = (spec: TokenReview['spec'], extra: Partial<TokenReview> = {}): TokenReview => ({
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenReview',
  spec,
  ...extra,
});

/** Records what it was asked and answers `result`. */
function fake(result: TokenReviewResult): {
  authenticate: TokenReviewAuthenticator;
  asked: { token: string; audiences: readonly string[] }[];
} {
  const asked: { token: string; audiences: readonly string[] }[] = [];
  return {
    asked,
    authenticate: (token, audiences) => {
      asked.push({ token, audiences });
      return Promise.resolve(result);
    },
  };
}

const statusOf = async (
  err: Promise<unknown>,
): Promise<{ code: number; reason: string; message: string }> => {
  try {
    await err;
  } catch (e) {
    assert.ok(e instanceof StatusError);
    const s = e.status;
    return { code: s.code, reason: s.reason ?? '', message: s.message ?? '' };
  }
  throw new Error('expected a Status error');
};

describe('TokenReviewREST', () => {
  it('answers with the user and audiences, asking for the API audiences when the spec names none', async () => {
    const f = fake({
      authenticated: true,
      user: { name: 'jane', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scope: ['a'] } },
      audiences: ['api'],
    });
    const rest = new TokenReviewREST({ authenticate: f.authenticate, apiAudiences: ['api'] });
    const out = (await rest.create(ctx, review({ token: 't' }, { metadata: { name: 'ignored' } }), {
      options: {},
    })) as TokenReview;
    assert.deepEqual(f.asked, [{ token: 't', audiences: ['api'] }]);
    assert.deepEqual(out, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      metadata: { name: 'ignored' },
      spec: { token: 't' },
      status: {
        authenticated: true,
        user: {
          username: 'jane',
          uid: 'u1',
          groups: ['dev', 'system:authenticated'],
          extra: { scope: ['a'] },
        },
        audiences: ['api'],
      },
    });
  });

  it('asks for the spec audiences and writes an unauthenticated answer as Go does (user {})', async () => {
    const f = fake({ authenticated: false, error: 'invalid bearer token' });
    const rest = new TokenReviewREST({ authenticate: f.authenticate, apiAudiences: ['api'] });
    const out = (await rest.create(ctx, review({ token: 't', audiences: ['vault'] }), {
      options: { dryRun: ['All'] },
    })) as TokenReview;
    assert.deepEqual(f.asked, [{ token: 't', audiences: ['vault'] }]);
    assert.deepEqual(out.status, { user: {}, error: 'invalid bearer token' });
  });

  it('refuses an empty token with kube’s 400 before asking anyone', async () => {
    const f = fake({ authenticated: false });
    const rest = new TokenReviewREST({ authenticate: f.authenticate, apiAudiences: [] });
    assert.deepEqual(await statusOf(rest.create(ctx, review({}), { options: {} })), {
      code: 400,
      reason: 'BadRequest',
      message: 'token is required for TokenReview in authentication',
    });
    assert.equal(f.asked.length, 0);
  });

  it('is a 500 when an authenticator vouches for none of the audiences asked', async () => {
    const f = fake({ authenticated: true, user: { name: 'jane', groups: [] } });
    const rest = new TokenReviewREST({ authenticate: f.authenticate, apiAudiences: ['api'] });
    assert.deepEqual(await statusOf(rest.create(ctx, review({ token: 't' }), { options: {} })), {
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: error validating audiences',
    });
  });

  it('runs the validation hook on a copy, and answers as sent without an authenticator', async () => {
    const seen: unknown[] = [];
    const rest = new TokenReviewREST();
    const obj = review({ token: 't' });
    const out = await rest.create(ctx, obj, {
      options: {},
      validate: (_ctx, o) => {
        seen.push(o);
        return Promise.resolve();
      },
    });
    assert.deepEqual(seen, [obj]);
    assert.notEqual(seen[0], obj);
    assert.equal(out, obj);
    assert.equal(rest.namespaceScoped(), false);
  });
});
