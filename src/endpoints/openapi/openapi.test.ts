import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { computeETag, newOpenAPIService } from './openapi-service.js';
import { fakeCoreGroup } from './testing/fake-groups.js';

/** The value at a path of keys, or undefined. */
function at(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? (v as Record<string, unknown>[]) : [];
const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
const names = (op: unknown): unknown[] => list(at(op, 'parameters')).map((p) => p['name']);
const service = newOpenAPIService({
  scheme: builtinScheme(),
  groups: [fakeCoreGroup()],
  info: { title: 'Kubernetes', version: 'v1.33.0' },
});
const v2 = JSON.parse(service.v2().toString()) as unknown;
const v3 = (path: string): unknown => JSON.parse(service.v3(path)?.toString() ?? 'null') as unknown;

/** Every `$ref` in a document points at a definition the document holds. */
function assertRefsResolve(doc: unknown, prefix: string, holderValue: unknown): void {
  const holder = record(holderValue);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref') {
          assert.ok(typeof x === 'string' && x.startsWith(prefix), `bad ref ${String(x)}`);
          assert.ok(x.slice(prefix.length) in holder, `dangling ref ${x}`);
        } else walk(x);
      }
    }
  };
  walk(doc);
}

describe('OpenAPI v2', () => {
  it('is a swagger 2.0 document whose references resolve', () => {
    assert.equal(at(v2, 'swagger'), '2.0');
    assert.deepEqual(at(v2, 'info'), { title: 'Kubernetes', version: 'v1.33.0' });
    assertRefsResolve(v2, '#/definitions/', at(v2, 'definitions'));
  });

  it('names operations as kube does', () => {
    const ids = (path: string): unknown[] =>
      ['get', 'put', 'post', 'delete', 'patch'].flatMap((m) => {
        const op = at(v2, 'paths', path, m);
        return op === undefined ? [] : [at(op, 'operationId')];
      });
    assert.deepEqual(ids('/api/v1/namespaces/{namespace}/configmaps/{name}'), [
      'readCoreV1NamespacedConfigMap',
      'replaceCoreV1NamespacedConfigMap',
      'deleteCoreV1NamespacedConfigMap',
      'patchCoreV1NamespacedConfigMap',
    ]);
    assert.deepEqual(ids('/api/v1/namespaces/{namespace}/configmaps'), [
      'listCoreV1NamespacedConfigMap',
      'createCoreV1NamespacedConfigMap',
      'deleteCoreV1CollectionNamespacedConfigMap',
    ]);
    assert.deepEqual(ids('/api/v1/configmaps'), ['listCoreV1ConfigMapForAllNamespaces']);
    assert.deepEqual(ids('/api/v1/watch/configmaps'), ['watchCoreV1ConfigMapListForAllNamespaces']);
    assert.deepEqual(ids('/api/v1/watch/namespaces/{namespace}/configmaps'), [
      'watchCoreV1NamespacedConfigMapList',
    ]);
    assert.deepEqual(ids('/api/v1/watch/namespaces/{namespace}/configmaps/{name}'), [
      'watchCoreV1NamespacedConfigMap',
    ]);
    assert.deepEqual(ids('/api/v1/namespaces'), ['listCoreV1Namespace', 'createCoreV1Namespace']);
    assert.deepEqual(ids('/api/v1/namespaces/{name}/status'), [
      'readCoreV1NamespaceStatus',
      'replaceCoreV1NamespaceStatus',
      'patchCoreV1NamespaceStatus',
    ]);
    assert.deepEqual(ids('/api/v1/namespaces/{name}/finalize'), ['replaceCoreV1NamespaceFinalize']);
    assert.deepEqual(ids('/api/v1/'), ['getCoreV1APIResources']);
    assert.deepEqual(ids('/api/'), ['getCoreAPIVersions']);
  });

  it('marks actions, kinds, parameters and media types', () => {
    const patch = at(v2, 'paths', '/api/v1/namespaces/{namespace}/configmaps/{name}', 'patch');
    assert.equal(at(patch, 'x-kubernetes-action'), 'patch');
    assert.deepEqual(at(patch, 'x-kubernetes-group-version-kind'), {
      group: '',
      kind: 'ConfigMap',
      version: 'v1',
    });
    assert.deepEqual(at(patch, 'consumes'), [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    assert.deepEqual(names(patch), ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']);
    const collection = at(v2, 'paths', '/api/v1/namespaces/{namespace}/configmaps');
    assert.deepEqual(names(at(collection, 'post')), ['body', 'dryRun', 'fieldManager', 'fieldValidation']);
    assert.deepEqual(names(at(collection, 'get')), [
      'allowWatchBookmarks',
      'continue',
      'fieldSelector',
      'labelSelector',
      'limit',
      'resourceVersion',
      'resourceVersionMatch',
      'sendInitialEvents',
      'timeoutSeconds',
      'watch',
    ]);
    assert.equal(at(collection, 'get', 'x-kubernetes-action'), 'list');
    assert.equal(
      at(collection, 'get', 'responses', '200', 'schema', '$ref'),
      '#/definitions/io.k8s.api.core.v1.ConfigMapList',
    );
    assert.equal(
      at(v2, 'paths', '/api/v1/watch/namespaces/{namespace}/configmaps', 'get', 'x-kubernetes-action'),
      'watchlist',
    );
    assert.equal(at(collection, 'delete', 'x-kubernetes-action'), 'deletecollection');
    assert.deepEqual(names(at(v2, 'paths', '/api/v1/namespaces/{namespace}/configmaps/{name}')), [
      'name',
      'namespace',
      'pretty',
    ]);
  });

  it('carries definitions with group-version-kinds and patch extensions', () => {
    const cm = at(v2, 'definitions', 'io.k8s.api.core.v1.ConfigMap');
    assert.deepEqual(at(cm, 'x-kubernetes-group-version-kind'), [
      { group: '', kind: 'ConfigMap', version: 'v1' },
    ]);
    assert.equal(
      at(cm, 'properties', 'metadata', '$ref'),
      '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    );
    const meta = at(v2, 'definitions', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    assert.equal(at(meta, 'properties', 'ownerReferences', 'x-kubernetes-patch-merge-key'), 'uid');
  });
});

describe('OpenAPI v3', () => {
  it('indexes one document per group/version with a hash that is its ETag', () => {
    const index = service.v3Index();
    assert.deepEqual(Object.keys(index.paths), ['api', 'api/v1', 'apis']);
    for (const [path, entry] of Object.entries(index.paths)) {
      const body = service.v3(path);
      assert.ok(body !== undefined);
      assert.equal(entry.serverRelativeURL, `/openapi/v3/${path}?hash=${computeETag(body)}`);
      assert.match(computeETag(body), /^[0-9A-F]{128}$/);
      JSON.parse(body.toString());
    }
    assert.equal(service.v3('apis/apps/v1'), undefined);
  });

  it('builds each document once', () => {
    assert.equal(service.v3('api/v1'), service.v3('api/v1'));
    assert.equal(service.v2(), service.v2());
  });

  it('holds only its own paths and the schemas they reach', () => {
    const doc = v3('api/v1');
    assert.equal(at(doc, 'openapi'), '3.0.0');
    assert.ok(Object.keys(record(at(doc, 'paths'))).every((p) => p.startsWith('/api/v1/')));
    assertRefsResolve(doc, '#/components/schemas/', at(doc, 'components', 'schemas'));
    assert.equal(at(doc, 'components', 'schemas', 'io.k8s.apimachinery.pkg.apis.meta.v1.Table'), undefined);
    assert.deepEqual(Object.keys(record(at(v3('api'), 'paths'))), ['/api/']);
  });

  it('lets kubectl --validate=strict find fieldValidation on PATCH (QueryParamVerifierV3)', () => {
    const doc = v3('api/v1');
    for (const kind of ['ConfigMap', 'Secret', 'Namespace']) {
      const patches = Object.values(record(at(doc, 'paths')))
        .map((item) => at(item, 'patch'))
        .filter((op) => op !== undefined && at(op, 'x-kubernetes-group-version-kind', 'kind') === kind);
      assert.ok(patches.length > 0, kind);
      const first = patches[0];
      assert.deepEqual(at(first, 'x-kubernetes-group-version-kind'), { group: '', kind, version: 'v1' });
      assert.ok(
        list(at(first, 'parameters')).some((p) => p['name'] === 'fieldValidation' && p['in'] === 'query'),
      );
    }
  });

  it('lets kubectl explain configmap.data find the field (plaintext template lookup)', () => {
    const doc = v3('api/v1');
    const gvk = at(doc, 'paths', '/api/v1/configmaps', 'get', 'x-kubernetes-group-version-kind');
    const schemas = Object.values(record(at(doc, 'components', 'schemas')));
    const match = schemas.find((s) =>
      list(at(s, 'x-kubernetes-group-version-kind')).some((g) => JSON.stringify(g) === JSON.stringify(gvk)),
    );
    assert.ok(match !== undefined);
    assert.equal(at(match, 'properties', 'data', 'type'), 'object');
    assert.equal(at(match, 'properties', 'data', 'additionalProperties', 'type'), 'string');
    assert.equal(typeof at(match, 'properties', 'data', 'description'), 'string');
    assert.equal(
      list(at(match, 'properties', 'metadata', 'allOf'))[0]?.['$ref'],
      '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    );
  });

  it('puts bodies in requestBody with the patch media types', () => {
    const patch = at(v3('api/v1'), 'paths', '/api/v1/namespaces/{namespace}/configmaps/{name}', 'patch');
    // A map (spec3 RequestBodyProps.Content): its keys sorted, as kube-openapi writes it.
    assert.deepEqual(Object.keys(record(at(patch, 'requestBody', 'content'))), [
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    assert.deepEqual(Object.keys(record(at(patch, 'responses', '200', 'content'))), [
      'application/json',
      'application/yaml',
    ]);
    assert.ok(!list(at(patch, 'parameters')).some((p) => p['in'] === 'body'));
  });
});
