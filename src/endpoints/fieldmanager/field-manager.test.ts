// The field manager's upgrade layers through the real configmap storage over HTTP without
// sockets: resetting managedFields, `before-first-apply`, and kubectl's move from client-side to
// server-side apply (lastAppliedManager, lastAppliedUpdater).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.js';
import { coreAPI, type CoreAPI } from '../testing/core-api.js';
import { lastAppliedAnnotation } from './last-applied.js';

const cms = '/api/v1/namespaces/default/configmaps';
const applyType = { 'content-type': 'application/apply-patch+yaml' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };

type Body = KubeObject & {
  data?: Record<string, string>;
  message?: string;
  details?: { causes?: unknown[] };
};

const entries = (obj: KubeObject): string[] =>
  (obj.metadata?.managedFields ?? []).map(
    (e: ManagedFieldsEntry) => `${e.manager ?? ''}/${e.operation ?? ''}`,
  );

const cm = (
  name: string,
  data: Record<string, string>,
  annotations?: Record<string, string>,
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
  data,
});

/** What `kubectl apply` (client-side) writes on create: the object with its own JSON as annotation. */
const clientSideApplied = (name: string, data: Record<string, string>): KubeObject => {
  const config = { ...cm(name, data), metadata: { annotations: {}, name, namespace: 'default' } };
  return cm(name, data, { [lastAppliedAnnotation]: JSON.stringify(config) });
};

describe('field manager: resets and the client-side to server-side apply upgrade', () => {
  let api: CoreAPI;
  const request = async (opts: Parameters<CoreAPI['request']>[0]): Promise<{ code: number; body: Body }> => {
    const r = await api.request(opts);
    return { code: r.statusCode, body: JSON.parse(r.body) as Body };
  };
  const apply = (name: string, query: string, data: Record<string, string>) =>
    request({
      method: 'PATCH',
      url: `${cms}/${name}?${query}`,
      headers: applyType,
      payload: JSON.stringify(cm(name, data)),
    });
  const create = (obj: KubeObject, manager: string) =>
    request({ method: 'POST', url: `${cms}?fieldManager=${manager}`, payload: obj });
  const resetManagedFields = (name: string, value: unknown) =>
    request({
      method: 'PATCH',
      url: `${cms}/${name}?fieldManager=resetter`,
      headers: jsonPatch,
      payload: [{ op: 'replace', path: '/metadata/managedFields', value }],
    });

  before(async () => {
    api = await coreAPI();
    await api.request({
      method: 'POST',
      url: '/api/v1/namespaces',
      payload: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
    });
  });
  after(async () => {
    await api.close();
  });

  for (const [label, value] of [
    ['[{}]', [{}]],
    ['[]', []],
  ] as const) {
    it(`managedFields: ${label} clears them, and later updates do not track an untracked object`, async () => {
      const name = `reset-${label === '[]' ? 'empty' : 'entry'}`;
      assert.equal((await create(cm(name, { a: '1' }), 'creator')).code, 201);
      const reset = await resetManagedFields(name, value);
      assert.equal(reset.code, 200);
      assert.equal(reset.body.metadata?.managedFields, undefined);
      const updated = await request({
        method: 'PATCH',
        url: `${cms}/${name}?fieldManager=labeler`,
        headers: { 'content-type': 'application/merge-patch+json' },
        payload: { metadata: { labels: { x: 'y' } } },
      });
      assert.equal(updated.code, 200);
      assert.deepEqual(updated.body.metadata?.labels, { x: 'y' });
      assert.equal(updated.body.metadata.managedFields, undefined);
    });
  }

  it('the first apply to an untracked object gives what it held to before-first-apply', async () => {
    await create(cm('bfa', { a: '1', b: '2' }), 'creator');
    await resetManagedFields('bfa', [{}]);
    const clash = await apply('bfa', 'fieldManager=ssa', { a: '9' });
    assert.equal(clash.code, 409);
    assert.equal(
      clash.body.message,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a',
    );
    const same = await apply('bfa', 'fieldManager=ssa', { a: '1' });
    assert.equal(same.code, 200);
    assert.deepEqual(entries(same.body), ['ssa/Apply', 'before-first-apply/Update']);
    const owned = same.body.metadata?.managedFields?.find((e) => e.manager === 'before-first-apply');
    assert.deepEqual(owned?.fieldsV1, { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } });
  });

  it('an apply that creates the object records no before-first-apply', async () => {
    const r = await apply('fresh', 'fieldManager=ssa', { a: '1' });
    assert.equal(r.code, 201);
    assert.deepEqual(entries(r.body), ['ssa/Apply']);
  });

  it('kubectl server-side apply takes over fields its client-side apply set, and updates the annotation', async () => {
    assert.equal(
      (await create(clientSideApplied('csa', { a: '1', b: '2' }), 'kubectl-client-side-apply')).code,
      201,
    );
    const r = await apply('csa', 'fieldManager=kubectl', { a: '1', b: '3' });
    assert.equal(r.code, 200, r.body.message);
    assert.deepEqual(r.body.data, { a: '1', b: '3' });
    assert.deepEqual(entries(r.body), ['kubectl/Apply', 'kubectl-client-side-apply/Update']);
    const csa = r.body.metadata?.managedFields?.find((e) => e.manager === 'kubectl-client-side-apply');
    assert.deepEqual(csa?.fieldsV1, {
      'f:data': { '.': {}, 'f:a': {} },
      'f:metadata': { 'f:annotations': { '.': {}, [`f:${lastAppliedAnnotation}`]: {} } },
    });
    assert.equal(
      r.body.metadata?.annotations?.[lastAppliedAnnotation],
      '{"apiVersion":"v1","data":{"a":"1","b":"3"},"kind":"ConfigMap","metadata":{"name":"csa"}}\n',
    );
  });

  it('only the kubectl manager upgrades; others still conflict', async () => {
    await create(clientSideApplied('other', { a: '1' }), 'kubectl-client-side-apply');
    const r = await apply('other', 'fieldManager=helm', { a: '2' });
    assert.equal(r.code, 409);
    assert.equal(
      r.body.message,
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a',
    );
  });

  it('a field changed since the last client-side apply still conflicts', async () => {
    const original = clientSideApplied('drifted', { a: '1', b: '2' });
    await create(original, 'kubectl-client-side-apply');
    const edited = await request({
      method: 'PUT',
      url: `${cms}/drifted?fieldManager=kubectl-client-side-apply`,
      payload: { ...original, data: { a: '1', b: '5' } },
    });
    assert.equal(edited.code, 200);
    const r = await apply('drifted', 'fieldManager=kubectl', { a: '7', b: '6' });
    assert.equal(r.code, 409);
    // a=1 still matches the annotation's a=1, so only b (annotation 2, live 5) remains a conflict.
    assert.equal(
      r.body.message,
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.b',
    );
  });

  it('an annotation of another version gives no upgrade', async () => {
    const annotation = JSON.stringify({ ...cm('versioned', { a: '1' }), apiVersion: 'v2' });
    await create(
      cm('versioned', { a: '1' }, { [lastAppliedAnnotation]: annotation }),
      'kubectl-client-side-apply',
    );
    const r = await apply('versioned', 'fieldManager=kubectl', { a: '2' });
    assert.equal(r.code, 409);
  });

  it('a key named like an Object.prototype member is owned and given up as any other', async () => {
    for (const key of ['k', 'constructor', '__proto__']) {
      const name = `proto-${key.replace(/_/g, 'u').toLowerCase()}`;
      const applied = await apply(
        name,
        'fieldManager=a',
        JSON.parse(`{"${key}":"1","z":"2"}`) as Record<string, string>,
      );
      assert.equal(applied.code, 201);
      // Removed by another manager's update: nobody owns it any more, the updater included.
      const removed = await request({
        method: 'PATCH',
        url: `${cms}/${name}?fieldManager=c`,
        headers: { 'content-type': 'application/merge-patch+json' },
        payload: `{"data":{"${key}":null}}`,
      });
      assert.equal(removed.code, 200, key);
      assert.deepEqual(removed.body.data, { z: '2' });
      assert.deepEqual(entries(removed.body), ['a/Apply'], key);
    }
  });
});
