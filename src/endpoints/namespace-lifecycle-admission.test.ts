import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject, Status } from '../api/meta.js';
import { isCreater } from '../registry/rest/capabilities.js';
import { internalContext } from '../registry/rest/context.js';
import { admittedCoreAPI, type AdmittedCoreAPI } from './testing/admitted-core-api.js';

const nsBody = (name: string): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const cmBody = (meta: Record<string, string>, data: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data });

describe('NamespaceLifecycle admission', () => {
  let api: AdmittedCoreAPI;
  const post = (url: string, payload: string) =>
    api.request({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
  const status = (body: string): Status => JSON.parse(body) as Status;

  before(async () => {
    api = await admittedCoreAPI();
    for (const name of ['live', 'doomed', 'kube-system', 'default', 'kube-public', 'kube-node-lease'])
      assert.equal((await post('/api/v1/namespaces', nsBody(name))).statusCode, 201);
    assert.equal(
      (await post('/api/v1/namespaces/doomed/configmaps', cmBody({ name: 'kept' }))).statusCode,
      201,
    );
    // Marks it Terminating; no controller runs here, so it stays that way.
    assert.equal((await api.request({ method: 'DELETE', url: '/api/v1/namespaces/doomed' })).statusCode, 200);
    // An object whose namespace never existed, written past admission.
    const raw = api.raw.versionedResourcesStorageMap['v1']?.['configmaps'];
    assert.ok(raw !== undefined && isCreater(raw));
    await raw.create(
      internalContext({ namespace: 'ghost' }),
      JSON.parse(cmBody({ name: 'orphan', namespace: 'ghost' })) as KubeObject,
      { options: {} },
    );
  });
  after(() => api.close());

  it('allows creates in an Active namespace', async () => {
    assert.equal((await post('/api/v1/namespaces/live/configmaps', cmBody({ name: 'ok' }))).statusCode, 201);
  });

  it('refuses creates in a Terminating namespace with kube words and cause', async () => {
    const res = await post('/api/v1/namespaces/doomed/configmaps', cmBody({ name: 'late' }));
    assert.equal(res.statusCode, 403);
    const got = status(res.body);
    assert.equal(
      got.message,
      'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
    assert.equal(got.reason, 'Forbidden');
    assert.equal(got.code, 403);
    assert.equal(got.details?.name, 'late');
    assert.equal(got.details.kind, 'configmaps');
    assert.deepEqual(got.details.causes, [
      {
        reason: 'NamespaceTerminating',
        message: 'namespace doomed is being terminated',
        field: 'metadata.namespace',
      },
    ]);
    const generated = await post(
      '/api/v1/namespaces/doomed/secrets',
      JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { generateName: 'tok-' } }),
    );
    assert.equal(generated.statusCode, 403);
    assert.equal(
      status(generated.body).message,
      'secrets "tok-" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
  });

  it('allows updates, patches and deletes in a Terminating namespace', async () => {
    const url = '/api/v1/namespaces/doomed/configmaps/kept';
    const put = await api.request({
      method: 'PUT',
      url,
      payload: cmBody({ name: 'kept', namespace: 'doomed' }, { a: '1' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(put.statusCode, 200, put.body);
    const patch = await api.request({
      method: 'PATCH',
      url,
      payload: '{"data":{"b":"2"}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patch.statusCode, 200, patch.body);
    assert.equal((await api.request({ method: 'DELETE', url })).statusCode, 200);
  });

  it('answers NotFound for creates and updates in a namespace that does not exist', async () => {
    const created = await post('/api/v1/namespaces/nowhere/configmaps', cmBody({ name: 'x' }));
    assert.equal(created.statusCode, 404);
    assert.equal(status(created.body).message, 'namespaces "nowhere" not found');
    assert.equal(status(created.body).details?.name, 'nowhere');
    const url = '/api/v1/namespaces/ghost/configmaps/orphan';
    const patched = await api.request({
      method: 'PATCH',
      url,
      payload: '{"data":{"b":"2"}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.statusCode, 404);
    assert.equal(status(patched.body).message, 'namespaces "ghost" not found');
    // Deletes are always allowed, so what is left in a missing namespace can be cleaned up.
    assert.equal((await api.request({ method: 'DELETE', url })).statusCode, 200);
  });

  it('refuses to delete default, kube-system and kube-public; other namespaces go', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const res = await api.request({ method: 'DELETE', url: `/api/v1/namespaces/${name}` });
      assert.equal(res.statusCode, 403);
      assert.equal(
        status(res.body).message,
        `namespaces "${name}" is forbidden: this namespace may not be deleted`,
      );
      assert.equal(status(res.body).reason, 'Forbidden');
      const ns = await api.namespaces.namespaces.get(internalContext(), name, {});
      assert.equal(ns.status?.phase, 'Active');
    }
    assert.equal(
      (await api.request({ method: 'DELETE', url: '/api/v1/namespaces/kube-node-lease' })).statusCode,
      200,
    );
  });

  it('always allows namespaces themselves and cluster-scoped requests', async () => {
    assert.equal((await post('/api/v1/namespaces', nsBody('fresh'))).statusCode, 201);
    const fin = await api.request({ method: 'GET', url: '/api/v1/namespaces/doomed' });
    const put = await api.request({
      method: 'PUT',
      url: '/api/v1/namespaces/doomed/status',
      payload: fin.body,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(put.statusCode, 200, put.body);
  });
});
