import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { newOpenAPIService } from './openapi-service.js';
import { acceptsJSON, negotiateV2, serveOpenAPI } from './serve.js';
import { fakeCoreGroup } from './testing/fake-groups.js';

const service = newOpenAPIService({ scheme: builtinScheme(), groups: [fakeCoreGroup()] });
const get = (url: string, headers: { accept?: string; ifNoneMatch?: string } = {}) => {
  const u = new URL(url, 'https://localhost');
  return serveOpenAPI(service, {
    path: u.pathname,
    query: u.searchParams,
    ...headers,
    now: new Date('2025-01-01T00:00:00Z'),
  });
};

describe('serving OpenAPI', () => {
  it('serves v2 as JSON with a quoted ETag and 304 on a match', async () => {
    const first = await get('/openapi/v2');
    assert.equal(first?.status, 200);
    assert.equal(first.headers['Content-Type'], 'application/json');
    assert.equal(first.headers['ETag'], `"${service.v2Document().etag}"`);
    assert.equal(first.body, service.v2());
    const again = await get('/openapi/v2', { ifNoneMatch: first.headers['ETag'] ?? '' });
    assert.equal(again?.status, 304);
    assert.equal(again.body, undefined);
  });

  it('serves v2 in protobuf to kubectl, under the current media type name and the JSON ETag', async () => {
    for (const accept of [
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json;q=0.9',
    ]) {
      const r = await get('/openapi/v2', { accept });
      assert.equal(r?.status, 200, accept);
      assert.equal(r.headers['Content-Type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
      assert.equal(r.headers['ETag'], `"${service.v2Document().etag}"`);
      assert.equal(r.headers['Vary'], 'Accept');
      assert.equal(r.body, (await service.v2ProtoDocument()).body);
      assert.notDeepEqual(r.body, service.v2());
    }
  });

  it('negotiates v2 by quality, then specificity, then order; 406 when nothing fits', async () => {
    assert.equal(negotiateV2(undefined)?.protobuf, false);
    assert.equal(negotiateV2('*/*')?.protobuf, false);
    assert.equal(negotiateV2('application/*')?.protobuf, false);
    assert.equal(
      negotiateV2('application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf')
        ?.protobuf,
      true,
    );
    assert.equal(
      negotiateV2('*/*, application/com.github.proto-openapi.spec.v2.v1.0+protobuf')?.protobuf,
      true,
    );
    assert.equal(negotiateV2('application/com.github.proto-openapi.spec.v2.v1.0+protobuf;q=0'), undefined);
    assert.equal((await get('/openapi/v2', { accept: 'text/html' }))?.status, 406);
    assert.equal((await get('/openapi/v2', { accept: 'application/vnd.kubernetes.protobuf' }))?.status, 406);
    assert.equal(acceptsJSON('*/*;q=0.8'), true);
    assert.equal(acceptsJSON('application/json;q=0'), false);
  });

  it('serves the v3 index and documents, immutable when pinned by hash', async () => {
    const index = await get('/openapi/v3');
    assert.equal(index?.status, 200);
    const url = service.v3Index().paths['api/v1']?.serverRelativeURL ?? '';
    const pinned = await get(url);
    assert.equal(pinned?.status, 200);
    assert.equal(pinned.headers['Cache-Control'], 'public, immutable');
    assert.equal(pinned.headers['Expires'], 'Thu, 01 Jan 2026 00:00:00 GMT');
    assert.equal(pinned.headers['Vary'], 'Accept');
    assert.equal(pinned.body, service.v3('api/v1'));
    const plain = await get('/openapi/v3/api/v1');
    assert.equal(plain?.headers['Cache-Control'], undefined);
  });

  it('redirects a stale hash to the current one', async () => {
    const stale = await get('/openapi/v3/api/v1?hash=0123');
    assert.equal(stale?.status, 301);
    assert.equal(stale.headers['Location'], service.v3Index().paths['api/v1']?.serverRelativeURL);
  });

  it('answers 404 for unknown documents and nothing for other paths', async () => {
    assert.equal((await get('/openapi/v3/apis/apps/v1'))?.status, 404);
    assert.equal(await get('/api/v1'), undefined);
  });
});
