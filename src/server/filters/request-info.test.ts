import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestInfoFor } from '../../endpoints/request/request-info.js';
import { parseRequestURL } from '../../endpoints/request/request-url.js';
import { isLongRunning } from './request-info.js';

const info = (method: string, url: string): ReturnType<typeof requestInfoFor> =>
  requestInfoFor({ method }, parseRequestURL(url));

test('the filters see the same request info as the handlers, legacy verb paths included', () => {
  const legacy = info('GET', '/api/v1/watch/namespaces/default/configmaps');
  assert.equal(legacy.verb, 'watch');
  assert.equal(legacy.resource, 'configmaps');
  assert.equal(legacy.namespace, 'default');
  // A proxy path is long-running, so the request timeout filter must leave it alone.
  const proxy = info('GET', '/api/v1/proxy/namespaces/default/pods/p');
  assert.equal(proxy.verb, 'proxy');
  assert.ok(isLongRunning(proxy));
  assert.equal(info('DELETE', '/api/v1/namespaces/default/configmaps').verb, 'deletecollection');
  assert.equal(info('GET', '/apis/apps/v1/deployments?watch=1').verb, 'watch');
});

test('a path the parser refuses counts as a non-resource request for the filters', () => {
  const bare = info('GET', '/api/v1/watch');
  assert.equal(bare.isResourceRequest, false);
  assert.equal(bare.verb, 'get');
  const escaped = info('GET', '/api/v1/namespaces/%zz/pods');
  assert.equal(escaped.isResourceRequest, false);
  assert.equal(escaped.path, '/api/v1/namespaces/%zz/pods');
});
