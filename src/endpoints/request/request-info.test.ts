import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveRequestInfo, RequestInfoError } from './request-info.js';

interface Case {
  readonly method: string;
  readonly url: string;
  readonly want: {
    verb: string;
    resource?: string;
    name?: string;
    namespace?: string;
    subresource?: string;
    apiGroup?: string;
    apiVersion?: string;
    isResourceRequest?: boolean;
  };
}

// Expectations from kube's requestinfo_test.go behaviour.
const cases: readonly Case[] = [
  { method: 'GET', url: '/api/v1/namespaces', want: { verb: 'list', resource: 'namespaces' } },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other',
    want: { verb: 'get', resource: 'namespaces', name: 'other', namespace: 'other' },
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods/foo',
    want: { verb: 'get', resource: 'pods', name: 'foo', namespace: 'other' },
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods',
    want: { verb: 'list', resource: 'pods', namespace: 'other' },
  },
  { method: 'GET', url: '/api/v1/pods', want: { verb: 'list', resource: 'pods', namespace: '' } },
  {
    method: 'HEAD',
    url: '/api/v1/namespaces/other/pods/foo',
    want: { verb: 'get', resource: 'pods', name: 'foo' },
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?watch=true',
    want: { verb: 'watch', resource: 'pods' },
  },
  { method: 'GET', url: '/api/v1/namespaces/other/pods?watch=1', want: { verb: 'watch', resource: 'pods' } },
  { method: 'GET', url: '/api/v1/namespaces/other/pods?watch=', want: { verb: 'watch', resource: 'pods' } },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?watch=false',
    want: { verb: 'list', resource: 'pods' },
  },
  { method: 'GET', url: '/api/v1/namespaces/other/pods?watch=0', want: { verb: 'list', resource: 'pods' } },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?watch=FALSE',
    want: { verb: 'list', resource: 'pods' },
  },
  { method: 'GET', url: '/api/v1/watch/pods', want: { verb: 'watch', resource: 'pods', namespace: '' } },
  {
    method: 'GET',
    url: '/api/v1/watch/namespaces/other/pods',
    want: { verb: 'watch', resource: 'pods', namespace: 'other' },
  },
  {
    method: 'GET',
    url: '/api/v1/watch/namespaces/other/pods/foo',
    want: { verb: 'watch', resource: 'pods', name: 'foo' },
  },
  {
    method: 'GET',
    url: '/api/v1/proxy/namespaces/other/pods/foo/a/b',
    want: { verb: 'proxy', resource: 'pods', name: 'foo', subresource: '' },
  },
  {
    method: 'POST',
    url: '/api/v1/namespaces/other/pods',
    want: { verb: 'create', resource: 'pods', namespace: 'other' },
  },
  {
    method: 'PUT',
    url: '/api/v1/namespaces/other/pods/foo',
    want: { verb: 'update', resource: 'pods', name: 'foo' },
  },
  {
    method: 'PATCH',
    url: '/api/v1/namespaces/other/pods/foo',
    want: { verb: 'patch', resource: 'pods', name: 'foo' },
  },
  {
    method: 'DELETE',
    url: '/api/v1/namespaces/other/pods/foo',
    want: { verb: 'delete', resource: 'pods', name: 'foo' },
  },
  {
    method: 'DELETE',
    url: '/api/v1/namespaces/other/pods',
    want: { verb: 'deletecollection', resource: 'pods' },
  },
  {
    method: 'POST',
    url: '/api/v1/namespaces/other/pods/foo/binding',
    want: { verb: 'create', resource: 'pods', name: 'foo', subresource: 'binding' },
  },
  {
    method: 'PUT',
    url: '/api/v1/namespaces/other/finalize',
    want: { verb: 'update', resource: 'namespaces', name: 'other', subresource: 'finalize' },
  },
  {
    method: 'PUT',
    url: '/api/v1/namespaces/other/status',
    want: { verb: 'update', resource: 'namespaces', name: 'other', subresource: 'status' },
  },
  {
    method: 'GET',
    url: '/api/v1/nodes/n1/status',
    want: { verb: 'get', resource: 'nodes', name: 'n1', subresource: 'status' },
  },
  {
    method: 'GET',
    url: '/apis/apps/v1/namespaces/other/deployments/d/scale',
    want: {
      verb: 'get',
      apiGroup: 'apps',
      apiVersion: 'v1',
      resource: 'deployments',
      name: 'd',
      subresource: 'scale',
    },
  },
  {
    method: 'GET',
    url: '/apis/extensions/v1beta1/namespaces/other/ingresses',
    want: { verb: 'list', apiGroup: 'extensions', apiVersion: 'v1beta1', resource: 'ingresses' },
  },
  {
    method: 'GET',
    url: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    want: { verb: 'list', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?fieldSelector=metadata.name%3Dfoo',
    want: { verb: 'list', resource: 'pods', name: 'foo' },
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?fieldSelector=metadata.name%3Dfoo&watch=true',
    want: { verb: 'watch', name: 'foo' },
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?fieldSelector=metadata.name%3D..',
    want: { verb: 'list', name: '' },
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?fieldSelector=metadata.name!%3Dfoo',
    want: { verb: 'list', name: '' },
  },
  { method: 'GET', url: '/api', want: { verb: 'get', isResourceRequest: false } },
  { method: 'GET', url: '/api/v1', want: { verb: 'get', isResourceRequest: false } },
  { method: 'GET', url: '/apis', want: { verb: 'get', isResourceRequest: false } },
  { method: 'GET', url: '/apis/apps', want: { verb: 'get', isResourceRequest: false } },
  { method: 'GET', url: '/apis/apps/v1', want: { verb: 'get', isResourceRequest: false } },
  { method: 'POST', url: '/healthz', want: { verb: 'post', isResourceRequest: false } },
  { method: 'GET', url: '/openapi/v2', want: { verb: 'get', isResourceRequest: false } },
  { method: 'OPTIONS', url: '/api/v1/pods', want: { verb: '', resource: 'pods' } },
];

for (const c of cases) {
  test(`${c.method} ${c.url}`, () => {
    const info = resolveRequestInfo({ method: c.method }, new URL(c.url, 'http://h'));
    const got: Record<string, unknown> = { verb: info.verb };
    for (const key of Object.keys(c.want)) got[key] = info[key as keyof typeof info];
    assert.deepEqual(got, { ...c.want });
  });
}

test('a special verb with nothing after it cannot be resolved', () => {
  assert.throws(
    () => resolveRequestInfo({ method: 'GET' }, new URL('http://h/api/v1/watch')),
    RequestInfoError,
  );
});

test('an escaped slash splits the path as Go decodes it', () => {
  const info = resolveRequestInfo({ method: 'GET' }, new URL('http://h/api/v1/namespaces/a%2Fb'));
  assert.equal(info.namespace, 'a');
  assert.equal(info.resource, 'b');
});
