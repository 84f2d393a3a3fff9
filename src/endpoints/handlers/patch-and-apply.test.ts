// Strategic merge patch, server-side apply and managedFields through the real configmap and
// namespace storages, over HTTP without sockets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.js';
import { coreAPI, type CoreAPI } from '../testing/core-api.js';

const cms = '/api/v1/namespaces/default/configmaps';
const smp = { 'content-type': 'application/strategic-merge-patch+json' };
const applyType = { 'content-type': 'application/apply-patch+yaml' };

const cmYAML = (name: string, data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"\n`)
    .join('')}`;

const managers = (obj: KubeObject): string[] =>
  (obj.metadata?.managedFields ?? []).map(
    (e: ManagedFieldsEntry) => `${e.manager ?? ''}/${e.operation ?? ''}`,
  );

describe('PATCH: strategic merge and apply', () => {
  let api: CoreAPI;
  const request = async (
    opts: Parameters<CoreAPI['request']>[0],
  ): Promise<{ code: number; body: KubeObject & Record<string, unknown> }> => {
    const r = await api.request(opts);
    return { code: r.statusCode, body: JSON.parse(r.body) as KubeObject & Record<string, unknown> };
  };
  const applyCM = (name: string, query: string, data: Record<string, string>) =>
    request({
      method: 'PATCH',
      url: `${cms}/${name}?${query}`,
      headers: applyType,
      payload: cmYAML(name, data),
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

  it('records an Update entry on create, with kube FieldsV1', async () => {
    const r = await request({
      method: 'POST',
      url: `${cms}?fieldManager=creator`,
      payload: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c1', labels: { app: 'x' } },
        data: { a: '1' },
      },
    });
    assert.equal(r.code, 201);
    const [entry] = r.body.metadata?.managedFields ?? [];
    assert.deepEqual(
      { ...entry, time: undefined },
      {
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'v1',
        time: undefined,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:data': { '.': {}, 'f:a': {} },
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        },
      },
    );
  });

  it('applies a strategic merge patch and records its manager', async () => {
    const r = await request({
      method: 'PATCH',
      url: `${cms}/c1?fieldManager=patcher`,
      headers: smp,
      payload: { data: { b: '2' }, metadata: { labels: { app: null } } },
    });
    assert.equal(r.code, 200);
    assert.deepEqual(r.body['data'], { a: '1', b: '2' });
    assert.deepEqual(Object.keys(r.body.metadata?.labels ?? {}), []);
    assert.deepEqual(managers(r.body), ['creator/Update', 'patcher/Update']);
  });

  it('takes the manager from the user agent when none is named', async () => {
    const r = await request({
      method: 'PATCH',
      url: `${cms}/c1`,
      headers: { ...smp, 'user-agent': 'kubectl/v1.33.0 (linux/amd64)' },
      payload: { data: { c: '3' } },
    });
    assert.ok(managers(r.body).includes('kubectl/Update'));
  });

  it('creates with apply and owns the applied fields', async () => {
    const r = await applyCM('s1', 'fieldManager=one', { x: '1', z: '2' });
    assert.equal(r.code, 201);
    assert.deepEqual(managers(r.body), ['one/Apply']);
    assert.deepEqual(r.body.metadata?.managedFields?.[0]?.fieldsV1, { 'f:data': { 'f:x': {}, 'f:z': {} } });
  });

  it('answers a conflict with 409 and one cause per field', async () => {
    const r = await applyCM('s1', 'fieldManager=two', { x: '9' });
    assert.equal(r.code, 409);
    assert.equal(r.body['message'], 'Apply failed with 1 conflict: conflict with "one": .data.x');
    assert.deepEqual((r.body['details'] as { causes: unknown }).causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.data.x' },
    ]);
  });

  it('names Update managers with their apiVersion in conflicts', async () => {
    const r = await applyCM('c1', 'fieldManager=two', { a: '9', b: '9' });
    assert.equal(r.code, 409);
    assert.equal(
      r.body['message'],
      'Apply failed with 2 conflicts: conflicts with "creator" using v1:\n- .data.a\nconflicts with "patcher" using v1:\n- .data.b',
    );
  });

  it('force takes ownership over', async () => {
    const r = await applyCM('s1', 'fieldManager=two&force=true', { x: '9' });
    assert.equal(r.code, 200);
    assert.deepEqual(r.body['data'], { x: '9', z: '2' });
    const fields = Object.fromEntries(
      (r.body.metadata?.managedFields ?? []).map((e): [string, unknown] => [e.manager ?? '', e.fieldsV1]),
    );
    assert.deepEqual(fields, { one: { 'f:data': { 'f:z': {} } }, two: { 'f:data': { 'f:x': {} } } });
  });

  it('removes a field its sole owner stops applying', async () => {
    const r = await request({
      method: 'PATCH',
      url: `${cms}/s1?fieldManager=one`,
      headers: applyType,
      payload: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s1\n',
    });
    assert.equal(r.code, 200);
    assert.deepEqual(r.body['data'], { x: '9' });
    assert.deepEqual(managers(r.body), ['two/Apply']);
  });

  it('keeps managedFields across an update that omits them', async () => {
    const got = await request({ method: 'GET', url: `${cms}/s1` });
    const metadata = { ...got.body.metadata };
    delete metadata.managedFields;
    const body: KubeObject = { ...got.body, metadata };
    body['data'] = { x: '9', w: '1' };
    const r = await request({ method: 'PUT', url: `${cms}/s1?fieldManager=editor`, payload: body });
    assert.equal(r.code, 200);
    assert.deepEqual(managers(r.body), ['two/Apply', 'editor/Update']);
  });

  it('requires a fieldManager for apply', async () => {
    const r = await request({
      method: 'PATCH',
      url: `${cms}/s1`,
      headers: applyType,
      payload: cmYAML('s1', {}),
    });
    assert.equal(r.code, 422);
    assert.equal(
      r.body['message'],
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });

  it('refuses an apply with the wrong version, managedFields, or an undeclared field', async () => {
    const wrong = await request({
      method: 'PATCH',
      url: `${cms}/s1?fieldManager=one`,
      headers: applyType,
      payload: 'kind: ConfigMap\nmetadata:\n  name: s1\n',
    });
    assert.deepEqual(
      [wrong.code, wrong.body['message']],
      [400, 'Incorrect version specified in apply patch. Specified patch version: , expected: v1'],
    );
    const mf = await request({
      method: 'PATCH',
      url: `${cms}/s1?fieldManager=one`,
      headers: applyType,
      payload: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s1\n  managedFields: []\n',
    });
    assert.deepEqual([mf.code, mf.body['message']], [400, 'metadata.managedFields must be nil']);
    const bogus = await request({
      method: 'PATCH',
      url: `${cms}/s1?fieldManager=one`,
      headers: applyType,
      payload: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s1\nbogus: 1\n',
    });
    assert.deepEqual(
      [bogus.code, bogus.body['message']],
      [
        400,
        'failed to create typed patch object (/s1; /v1, Kind=ConfigMap): .bogus: field not declared in schema',
      ],
    );
  });

  it('fails duplicate keys in an apply under Strict', async () => {
    const r = await request({
      method: 'PATCH',
      url: `${cms}/s1?fieldManager=two&fieldValidation=Strict`,
      headers: applyType,
      payload: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s1\ndata:\n  x: "1"\n  x: "2"\n',
    });
    assert.equal(r.code, 400);
    assert.match(
      String(r.body['message']),
      /^error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n {2}line 7: /,
    );
  });

  it('strategic merge patch: unknown fields fail under Strict and warn under Warn', async () => {
    const strict = await request({
      method: 'PATCH',
      url: `${cms}/c1?fieldValidation=Strict`,
      headers: smp,
      payload: { bogus: 1 },
    });
    assert.equal(strict.code, 422);
    assert.match(
      String(strict.body['message']),
      /^ "" is invalid: patch: Invalid value: "map\[bogus:1\]": strict decoding error: unknown field "bogus"$/,
    );
    const warn = await api.request({
      method: 'PATCH',
      url: `${cms}/c1?fieldValidation=Warn`,
      headers: smp,
      payload: { bogus: 1 },
    });
    assert.equal(warn.statusCode, 200);
    assert.deepEqual([warn.headers['warning']].flat(), ['299 - "unknown field \\"bogus\\""']);
  });

  it('strategic merge patch errors keep kube codes', async () => {
    const badRetain = await request({
      method: 'PATCH',
      url: `${cms}/c1`,
      headers: smp,
      payload: { data: { $retainKeys: 'x' } },
    });
    assert.deepEqual(
      [badRetain.code, badRetain.body['message']],
      [400, 'invalid patch format of retainKeys'],
    );
    const badDirective = await request({
      method: 'PATCH',
      url: `${cms}/c1`,
      headers: smp,
      payload: { data: { $patch: 'bogus' } },
    });
    assert.deepEqual(
      [badDirective.code, badDirective.body['message'], badDirective.body['reason']],
      [400, 'unknown patch type: bogus in map: map[$patch:bogus]', 'BadRequest'],
    );
  });

  it('answers 415 without strategic merge for kinds the scheme lacks', async () => {
    const { strategicMergePatchMechanism } = await import('./strategic-merge-patch.js');
    const m = strategicMergePatchMechanism({ kindFor: () => undefined, resolve: (s) => s });
    assert.equal(m.supports?.({ group: 'example.com', version: 'v1', kind: 'Widget' }), false);
  });
});
