// parseRequestURL means what `new URL(target, 'http://localhost')` means, for every target.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestURL } from './request-url.js';

function same(target: string): void {
  let want: URL;
  try {
    want = new URL(target, 'http://localhost');
  } catch {
    assert.throws(() => parseRequestURL(target), TypeError, target);
    return;
  }
  const got = parseRequestURL(target);
  assert.equal(got.pathname, want.pathname, target);
  assert.equal(got.search, want.search, target);
  assert.deepEqual([...got.searchParams], [...want.searchParams], target);
}

describe('parseRequestURL', () => {
  it('splits plain targets without a URL, reading the query only when asked', () => {
    const url = parseRequestURL('/api/v1/namespaces/default/pods?limit=1&watch=true');
    assert.ok(!(url instanceof URL));
    assert.equal(url.pathname, '/api/v1/namespaces/default/pods');
    assert.equal(url.search, '?limit=1&watch=true');
    assert.equal(url.searchParams.get('limit'), '1');
    assert.ok(!(parseRequestURL('/api/v1/pods/a%2Fb') instanceof URL));
  });

  it('agrees with WHATWG URL parsing on what clients send and what they should not', () => {
    for (const target of [
      '/',
      '/api',
      '/api/v1/namespaces/default/pods/a%2Fb',
      '/api/v1/pods?',
      '/api/v1/pods?labelSelector=a%20in%20(b,c)&fieldSelector=metadata.name%3Dx',
      '/api/v1/pods?labelSelector=a+in+(b)',
      '/api/v1/pods?x=%zz&y',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:basic-user',
      '/api/v1/namespaces/default/configmaps/../pods',
      '/api/v1/namespaces/default/./pods',
      '/api/v1/namespaces/default/pods/%2e%2E',
      '/.well-known/openid-configuration',
      '//api/v1',
      'http://foo/api/v1/secrets',
      '*',
      '/x y?q=a b',
      '/p?a=\'b"',
      "/p'q",
      '/p#frag',
      '/api\\v1',
      '/p?q#f',
      '/p?a=<b>&c={d}',
      '/p`q',
      '/\u00e9t\u00e9?\u00e9=1',
      '//%',
    ])
      same(target);
  });

  it('agrees with WHATWG URL parsing on random targets', () => {
    const alphabet = '/?%#.2eE:@!$&\'()*+,;=aZ09-_~ "<>\\`{}[]^|\u00e9\t';
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 5000; i++) {
      let target = '/';
      const length = next(16);
      for (let j = 0; j < length; j++) target += alphabet[next(alphabet.length)] ?? '';
      same(target);
    }
  });
});
