import { it } from 'node:test';
import assert from 'node:assert/strict';
import { historyAuthorizationAttributes, parseHistoryPath } from './history-path.js';

const user = { name: 'developer', groups: ['system:authenticated'] };

it('is authorized as a get of the object the path names', () => {
  const path = '/capstan/v1/history/apis/apps/v1/namespaces/team-a/deployments/web';
  assert.deepEqual(historyAuthorizationAttributes(path, user), {
    user,
    verb: 'get',
    resourceRequest: true,
    path,
    namespace: 'team-a',
    apiGroup: 'apps',
    apiVersion: 'v1',
    resource: 'deployments',
    subresource: '',
    name: 'web',
  });
  assert.deepEqual(historyAuthorizationAttributes('/capstan/v1/history/api/v1/nodes/n%2F1', user), {
    user,
    verb: 'get',
    resourceRequest: true,
    path: '/capstan/v1/history/api/v1/nodes/n%2F1',
    namespace: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'nodes',
    subresource: '',
    name: 'n/1',
  });
});

it('leaves other paths, and history paths of another shape, to the non-resource attributes', () => {
  for (const path of [
    '/capstan/v1/snapshots',
    '/api/v1/namespaces/a/pods/b',
    '/capstan/v1/history/api/v1/pods',
    '/capstan/v1/history/apis/apps/deployments/x',
    '/capstan/v1/history/api/v1/namespaces/a/pods/b/status',
    '/capstan/v1/history/api/v1/namespaces//pods/b',
    '/capstan/v1/history/api/v1/nodes/%E0',
  ])
    assert.equal(historyAuthorizationAttributes(path, user), undefined, path);
  assert.deepEqual(parseHistoryPath('/capstan/v1/history/api/v1/namespaces/default'), {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    namespace: '',
    name: 'default',
  });
});
