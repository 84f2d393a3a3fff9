// The patched object is decoded as the server's own (no syntax or repeated-key scans), yet a
// patch that adds what the kind does not have still gets kube's strict decoding error, quoting
// the patched object's JSON, under each patch type.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { coreAPI, type CoreAPI } from '../testing/core-api.js';

const cms = '/api/v1/namespaces/default/configmaps';
const types = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

/** The patched object a 422 quotes, and the error after it. */
function quoted(message: unknown): { shown: unknown; error: string } {
  const m = /^ "" is invalid: patch: Invalid value: ("(?:[^"\\]|\\.)*"): (.*)$/.exec(String(message));
  if (m === null) throw new Error(`not a patch error: ${String(message)}`);
  return { shown: JSON.parse(JSON.parse(m[1] ?? '') as string) as unknown, error: m[2] ?? '' };
}

describe('PATCH: decoding the patched object', () => {
  let api: CoreAPI;
  const patch = async (
    name: string,
    opts: { type: keyof typeof types; query: string; body: unknown },
  ): Promise<{ code: number; body: KubeObject & Record<string, unknown>; warnings: string[] }> => {
    const r = await api.request({
      method: 'PATCH',
      url: `${cms}/${name}?${opts.query}`,
      headers: { 'content-type': types[opts.type] },
      payload: JSON.stringify(opts.body),
    });
    const warning = r.headers['warning'];
    return {
      code: r.statusCode,
      body: JSON.parse(r.body) as KubeObject & Record<string, unknown>,
      warnings: warning === undefined ? [] : [warning].flat().map(String),
    };
  };
  const create = async (name: string, data: Record<string, string>): Promise<KubeObject> => {
    const r = await api.request({
      method: 'POST',
      url: cms,
      payload: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data },
    });
    assert.equal(r.statusCode, 201);
    return JSON.parse(r.body) as KubeObject;
  };

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

  it('merge patch: an unknown field is a strict error quoting the patched JSON', async () => {
    const created = await create('m1', { a: '1' });
    const r = await patch('m1', { type: 'merge', query: 'fieldValidation=Strict', body: { spec: { x: 1 } } });
    assert.equal(r.code, 422);
    assert.deepEqual(quoted(r.body['message']), {
      shown: { ...created, spec: { x: 1 } },
      error: 'strict decoding error: unknown field "spec"',
    });
    const warn = await patch('m1', {
      type: 'merge',
      query: 'fieldValidation=Warn',
      body: { spec: { x: 1 } },
    });
    assert.equal(warn.code, 200);
    assert.deepEqual(warn.warnings, ['299 - "unknown field \\"spec\\""']);
    assert.equal(warn.body['spec'], undefined);
    const ignore = await patch('m1', { type: 'merge', query: 'fieldValidation=Ignore', body: { spec: 1 } });
    assert.equal(ignore.code, 200);
    assert.deepEqual(ignore.warnings, []);
    assert.equal(ignore.body['spec'], undefined);
  });

  it('JSON patch: a nested unknown field is a strict error quoting the patched JSON', async () => {
    const created = await create('j1', { a: '1' });
    const r = await patch('j1', {
      type: 'json',
      query: 'fieldValidation=Strict',
      body: [{ op: 'add', path: '/metadata/bogus', value: { deep: true } }],
    });
    assert.equal(r.code, 422);
    assert.deepEqual(quoted(r.body['message']), {
      shown: { ...created, metadata: { ...created.metadata, bogus: { deep: true } } },
      error: 'strict decoding error: unknown field "metadata.bogus"',
    });
  });

  it('a type error in the patched object is fatal in every mode', async () => {
    const created = await create('t1', { a: '1' });
    const r = await patch('t1', {
      type: 'json',
      query: 'fieldValidation=Ignore',
      body: [{ op: 'replace', path: '/data/a', value: 5 }],
    });
    assert.equal(r.code, 422);
    assert.deepEqual(quoted(r.body['message']), {
      shown: { ...created, data: { a: 5 } },
      error: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    });
  });

  it('strategic merge patch: the error quotes the patch, as kube does', async () => {
    await create('s1', { a: '1' });
    const r = await patch('s1', { type: 'strategic', query: 'fieldValidation=Strict', body: { bogus: 1 } });
    assert.equal(r.code, 422);
    assert.equal(
      r.body['message'],
      ' "" is invalid: patch: Invalid value: "map[bogus:1]": strict decoding error: unknown field "bogus"',
    );
  });

  it('keeps JSON’s numbers and a data key named __proto__', async () => {
    await create('n1', { ['__proto__']: 'kept', b: '2' });
    const r = await api.request({
      method: 'PATCH',
      url: `${cms}/n1`,
      headers: { 'content-type': types.merge },
      // 1e400 is Infinity to JSON.parse, null once written as JSON: the empty string of a map.
      payload: '{"data":{"c":1e400}}',
    });
    assert.equal(r.statusCode, 200);
    const body = JSON.parse(r.body) as { data: Record<string, string> };
    assert.deepEqual(Object.entries(body.data), [
      ['__proto__', 'kept'],
      ['b', '2'],
      ['c', ''],
    ]);
  });
});
