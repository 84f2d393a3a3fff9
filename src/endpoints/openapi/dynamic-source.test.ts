import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { OBJECT_META } from '../../api/meta/v1/object-meta.js';
import type { Definitions } from '../../api/schema/types.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { OpenAPIDynamicSource } from './dynamic-source.js';
import { newOpenAPIService } from './openapi-service.js';
import { fakeCoreGroup, fakeStorage } from './testing/fake-groups.js';

const all = ['get', 'list', 'watch', 'create', 'update', 'delete', 'deletecollection'];
const crdGroup = (): APIGroupInfo => ({
  group: 'stable.example.com',
  prioritizedVersions: ['v1'],
  versionedResourcesStorageMap: {
    v1: {
      crontabs: fakeStorage({
        apiVersion: 'stable.example.com/v1',
        kind: 'CronTab',
        namespaced: true,
        verbs: all,
      }),
      'crontabs/status': fakeStorage({
        apiVersion: 'stable.example.com/v1',
        kind: 'CronTab',
        namespaced: true,
        verbs: ['get', 'update'],
      }),
      'crontabs/scale': fakeStorage({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        namespaced: true,
        verbs: ['get', 'update'],
      }),
    },
  },
});

const gvk = (kind: string): { group: string; kind: string; version: string }[] => [
  { group: 'stable.example.com', kind, version: 'v1' },
];
const definitions = (specField: string): Definitions => ({
  'com.example.stable.v1.CronTab': {
    type: 'object',
    properties: {
      metadata: { $ref: OBJECT_META },
      spec: { type: 'object', properties: { [specField]: { type: 'string', nullable: true } } },
    },
    'x-kubernetes-group-version-kind': gvk('CronTab'),
  },
  'com.example.stable.v1.CronTabList': {
    properties: { items: { type: 'array', items: { $ref: 'com.example.stable.v1.CronTab' } } },
    'x-kubernetes-group-version-kind': gvk('CronTabList'),
  },
});

/** A source whose served CRDs tests change: a new groups array each time, like the route table. */
function changingSource(): OpenAPIDynamicSource & { serve(specField: string | undefined): void } {
  let groups: readonly APIGroupInfo[] = [];
  let defs: Definitions = {};
  return {
    groups: () => groups,
    definitions: () => defs,
    serve: (specField) => {
      groups = specField === undefined ? [] : [crdGroup()];
      defs = specField === undefined ? {} : definitions(specField);
    },
  };
}

const json = (b: Buffer | undefined): Record<string, unknown> =>
  JSON.parse(b?.toString() ?? 'null') as Record<string, unknown>;
const keys = (v: unknown): string[] => Object.keys(v as object);

describe('OpenAPI documents with a dynamic source', () => {
  const source = changingSource();
  const service = newOpenAPIService({ scheme: builtinScheme(), groups: [fakeCoreGroup()], dynamic: source });

  it('publishes nothing of the source while it serves nothing', () => {
    assert.ok(!('apis/stable.example.com/v1' in service.v3Index().paths));
    assert.equal(service.v3('apis/stable.example.com/v1'), undefined);
  });

  it('lists the group/version in the v3 index and documents its paths and kinds', () => {
    source.serve('cronSpec');
    assert.ok('apis/stable.example.com/v1' in service.v3Index().paths);
    assert.ok('api/v1' in service.v3Index().paths);
    const doc = json(service.v3('apis/stable.example.com/v1'));
    const paths = keys(doc['paths']);
    for (const p of [
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs',
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}',
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status',
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale',
      '/apis/stable.example.com/v1/crontabs',
    ])
      assert.ok(paths.includes(p), `missing ${p}`);
    // Custom resources' discovery paths are not documented (kube leaves them out too).
    assert.ok(!paths.includes('/apis/stable.example.com/v1/'));
    const schemas = (doc['components'] as Record<string, unknown>)['schemas'] as Record<string, unknown>;
    for (const name of [
      'com.example.stable.v1.CronTab',
      'com.example.stable.v1.CronTabList',
      OBJECT_META,
      'io.k8s.api.autoscaling.v1.Scale',
    ])
      assert.ok(name in schemas, `missing schema ${name}`);
    const cronTab = schemas['com.example.stable.v1.CronTab'] as Record<string, unknown>;
    assert.deepEqual((cronTab['properties'] as Record<string, unknown>)['metadata'], {
      $ref: `#/components/schemas/${OBJECT_META}`,
    });
    const get = (doc['paths'] as Record<string, Record<string, Record<string, unknown>>>)[
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'
    ]?.['get'];
    assert.equal(get?.['operationId'], 'readStableExampleComV1NamespacedCronTab');
  });

  it('merges the definitions into the v2 document, where nullable is dropped', async () => {
    const v2 = json(service.v2());
    const defs = v2['definitions'] as Record<string, Record<string, unknown>>;
    const spec = (defs['com.example.stable.v1.CronTab']?.['properties'] as Record<string, unknown>)['spec'];
    assert.deepEqual(spec, { type: 'object', properties: { cronSpec: { type: 'string' } } });
    assert.ok(keys(v2['paths']).includes('/apis/stable.example.com/v1/namespaces/{namespace}/crontabs'));
    assert.ok(keys(v2['paths']).includes('/api/v1/namespaces/{namespace}/configmaps'));
    const proto = await service.v2ProtoDocument();
    assert.equal(proto.etag, service.v2Document().etag);
    assert.ok(proto.body.includes(Buffer.from('com.example.stable.v1.CronTab')));
  });

  it('rebuilds when the source changes: new ETags for what changed, the same for the rest', async () => {
    const core = service.v3Document('api/v1')?.etag;
    const before = service.v3Document('apis/stable.example.com/v1')?.etag;
    const v2Before = service.v2Document().etag;
    const protoBefore = (await service.v2ProtoDocument()).body;
    assert.equal(service.v3Document('apis/stable.example.com/v1')?.etag, before, 'stable without change');
    source.serve('schedule');
    const after = service.v3Document('apis/stable.example.com/v1')?.etag;
    assert.notEqual(after, before);
    assert.equal(
      service.v3Index().paths['apis/stable.example.com/v1']?.serverRelativeURL.endsWith(`=${after}`),
      true,
    );
    assert.ok(service.v3('apis/stable.example.com/v1')?.includes('"schedule"'));
    assert.equal(service.v3Document('api/v1')?.etag, core);
    assert.notEqual(service.v2Document().etag, v2Before);
    assert.notDeepEqual((await service.v2ProtoDocument()).body, protoBefore);
    source.serve(undefined);
    assert.equal(service.v3('apis/stable.example.com/v1'), undefined);
    assert.ok(!service.v2().includes('com.example.stable.v1.CronTab'));
  });
});
