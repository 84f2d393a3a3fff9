// The aggregated API servers' specs in the server's documents: v2 takes their paths and free
// definition names (the local ones win), the v3 index lists their group-version documents and
// serves their bytes, and a new specs object rebuilds the documents.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { AggregatedSpecs } from './aggregated-source.js';
import { computeETag, newOpenAPIService } from './openapi-service.js';
import { fakeCoreGroup } from './testing/fake-groups.js';

const wardleDoc = Buffer.from(
  JSON.stringify({ openapi: '3.0.0', paths: { '/apis/wardle.example.com/v1': {} } }),
);
const wardle: AggregatedSpecs = {
  v2: [
    {
      swagger: '2.0',
      paths: {
        '/apis/wardle.example.com/v1/flunders': { get: { operationId: 'listFlunders' } },
      },
      definitions: {
        'com.example.wardle.v1.Flunder': { type: 'object' },
        'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { description: 'not the local one' },
      },
    },
  ],
  v3: new Map([['apis/wardle.example.com/v1', wardleDoc]]),
};

describe('aggregated OpenAPI', () => {
  let specs: AggregatedSpecs = { v2: [], v3: new Map() };
  const service = newOpenAPIService({
    scheme: builtinScheme(),
    groups: [fakeCoreGroup()],
    aggregated: { specs: () => specs },
  });
  const v2 = (): { paths: Record<string, unknown>; definitions: Record<string, { description?: string }> } =>
    JSON.parse(service.v2().toString('utf8')) as never;

  it('serves the local documents alone while no backend is available', () => {
    assert.equal(v2().paths['/apis/wardle.example.com/v1/flunders'], undefined);
    assert.equal(service.v3Index().paths['apis/wardle.example.com/v1'], undefined);
  });

  it('merges a backend into v2 (local first) and lists its v3 document', () => {
    const localMeta = v2().definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
    assert.ok(localMeta !== undefined);
    specs = wardle;
    const merged = v2();
    assert.deepEqual(merged.paths['/apis/wardle.example.com/v1/flunders'], {
      get: { operationId: 'listFlunders' },
    });
    assert.deepEqual(merged.definitions['com.example.wardle.v1.Flunder'], { type: 'object' });
    assert.deepEqual(merged.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'], localMeta);
    const etag = computeETag(wardleDoc);
    assert.deepEqual(service.v3Index().paths['apis/wardle.example.com/v1'], {
      serverRelativeURL: `/openapi/v3/apis/wardle.example.com/v1?hash=${etag}`,
    });
    assert.deepEqual(service.v3('apis/wardle.example.com/v1'), wardleDoc);
    assert.ok(service.v3('api/v1') !== undefined);
  });

  it('drops the backend when its specs go', () => {
    specs = { v2: [], v3: new Map() };
    assert.equal(v2().paths['/apis/wardle.example.com/v1/flunders'], undefined);
    assert.equal(service.v3('apis/wardle.example.com/v1'), undefined);
  });
});
