// Empty lists and maps a client sends, in managedFields over HTTP as kube 1.33 records them. Built-in
// kinds: a create, PUT or patch records nothing for an omitempty member sent empty (kube computes an
// Update's fields from the object converted from its Go struct, which leaves it out); a
// server-side apply records what the applied configuration holds (an empty map, an atomic list).
// Custom resources: their metadata is coerced through ObjectMeta as kube decodes them (labels: {}
// leaves), the rest is unstructured (spec.args: [] is recorded).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { namespacedCRD } from './support/crd.js';
import { jsonCall, type JSONReply } from './support/json-call.js';

type Reply = JSONReply<
  Record<string, unknown> & {
    metadata?: { managedFields?: { manager?: string; operation?: string; fieldsV1?: unknown }[] };
  }
>;

let server: CapstanServer;

const call = (method: string, path: string, body?: unknown, contentType?: string): Promise<Reply> =>
  jsonCall(server, { method, path, body, ...(contentType === undefined ? {} : { contentType }) });

const fieldsOf = (r: Reply, manager: string): unknown =>
  r.body.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1;
const managers = (r: Reply): string[] =>
  (r.body.metadata?.managedFields ?? []).map((e) => `${e.manager ?? ''}/${e.operation ?? ''}`);

const pods = '/api/v1/namespaces/default/pods';

function pod(name: string, empties: boolean): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(empties ? { labels: {}, annotations: {} } : {}) },
    spec: {
      containers: [{ name: 'c', image: 'i', ...(empties ? { args: [], ports: [], env: [] } : {}) }],
      ...(empties ? { nodeSelector: {}, tolerations: [], volumes: [] } : {}),
    },
  };
}

describe('managedFields of empty lists and maps over HTTP', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('a create records nothing for them: the same fields as without them', async () => {
    const sent = await call('POST', `${pods}?fieldManager=m`, pod('empties', true));
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const plain = await call('POST', `${pods}?fieldManager=m`, pod('plain', false));
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
    assert.deepEqual(fieldsOf(sent, 'm'), fieldsOf(plain, 'm'));
    const text = JSON.stringify(fieldsOf(sent, 'm'));
    for (const name of [
      'labels',
      'annotations',
      'args',
      'ports',
      'env',
      'nodeSelector',
      'tolerations',
      'volumes',
    ])
      assert.ok(!text.includes(`"f:${name}"`), `${name} in ${text}`);
  });

  it('a PUT or a JSON patch adding empty members gives their manager nothing', async () => {
    const current = await call('GET', `${pods}/plain`);
    const body = structuredClone(current.body) as { metadata: Record<string, unknown> };
    body.metadata['labels'] = {};
    const put = await call('PUT', `${pods}/plain?fieldManager=putter`, body);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(managers(put), ['m/Update']);
    const patched = await call(
      'PATCH',
      `${pods}/plain?fieldManager=patcher`,
      [{ op: 'add', path: '/metadata/annotations', value: {} }],
      'application/json-patch+json',
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(managers(patched), ['m/Update']);
  });

  it('a server-side apply records what its configuration holds', async () => {
    const applied = await call(
      'PATCH',
      `${pods}/applied?fieldManager=applier`,
      pod('applied', true),
      'application/apply-patch+yaml',
    );
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    assert.deepEqual(fieldsOf(applied, 'applier'), {
      'f:metadata': { 'f:annotations': {}, 'f:labels': {} },
      'f:spec': {
        'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {} } },
        'f:nodeSelector': {},
        'f:tolerations': {},
      },
    });
    // Stored and served as Go writes it: the empty members are gone from the object itself.
    const got = await call('GET', `${pods}/applied`);
    assert.equal((got.body.metadata as Record<string, unknown>)['labels'], undefined);
  });

  it('a custom resource: metadata as ObjectMeta leaves it, its unstructured spec keeps what was sent', async () => {
    const crd = await call(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      namespacedCRD(
        'empty.example.com',
        { plural: 'gadgets', kind: 'Gadget' },
        {
          type: 'object',
          properties: {
            args: { type: 'array', items: { type: 'string' } },
            opts: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
      ),
    );
    assert.equal(crd.status, 201, JSON.stringify(crd.body));
    const created = await call(
      'POST',
      '/apis/empty.example.com/v1/namespaces/default/gadgets?fieldManager=m',
      {
        apiVersion: 'empty.example.com/v1',
        kind: 'Gadget',
        metadata: { name: 'g', labels: {} },
        spec: { args: [], opts: {} },
      },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(fieldsOf(created, 'm'), { 'f:spec': { '.': {}, 'f:args': {}, 'f:opts': {} } });
  });
});
