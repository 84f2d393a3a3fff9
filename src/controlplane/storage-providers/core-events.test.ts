import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { createAPIHandler } from '../../endpoints/api-handler.js';
import { testUser } from '../../endpoints/testing/core-api.js';
import { memoryRESTOptions } from '../../registry/generic/testing/memory-rest-options.js';
import { defaultAPIResourceConfigSource } from '../../server/resource-config.js';
import { newLegacyRESTStorage } from './core.js';

const describeQuery =
  '/api/v1/namespaces/default/events?fieldSelector=involvedObject.namespace%3Ddefault%2CinvolvedObject.kind%3DConfigMap%2CinvolvedObject.uid%3Dx%2CinvolvedObject.name%3Dalpha&limit=500';

describe('events over HTTP', () => {
  it("answers kubectl describe's events query", async () => {
    const env = await memoryRESTOptions();
    try {
      const group = await newLegacyRESTStorage({
        restOptionsGetter: env.getter,
        resourceConfig: defaultAPIResourceConfigSource(),
        eventTTL: 60,
      });
      const handler = createAPIHandler({
        groups: [group],
        scheme: builtinScheme(),
        minRequestTimeoutSeconds: 2,
      });
      const request = (opts: InjectOptions): Promise<Response> =>
        inject((req, res) => {
          void handler.handle(req, res, { user: testUser });
        }, opts);
      const event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'alpha.1' },
        involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'alpha', uid: 'x' },
        reason: 'Tested',
        message: 'hello',
        type: 'Normal',
      };
      const created = await request({
        method: 'POST',
        url: '/api/v1/namespaces/default/events',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(event),
      });
      assert.equal(created.statusCode, 201, created.body);
      const other = {
        ...event,
        metadata: { name: 'beta.1' },
        involvedObject: { ...event.involvedObject, name: 'beta' },
      };
      await request({
        method: 'POST',
        url: '/api/v1/namespaces/default/events',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(other),
      });
      const res = await request({ method: 'GET', url: describeQuery });
      assert.equal(res.statusCode, 200, res.body);
      const list = JSON.parse(res.body) as { kind: string; items: { metadata: { name: string } }[] };
      assert.equal(list.kind, 'EventList');
      assert.deepEqual(
        list.items.map((e) => e.metadata.name),
        ['alpha.1'],
      );
      const table = await request({
        method: 'GET',
        url: '/api/v1/namespaces/default/events',
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      });
      assert.equal(table.statusCode, 200, table.body);
      const t = JSON.parse(table.body) as { rows: { cells: unknown[] }[] };
      assert.equal(t.rows[0]?.cells[3], 'configmap/alpha');
      await Promise.all(
        Object.values(group.versionedResourcesStorageMap.v1 ?? {}).map(async (s) => s.destroy()),
      );
    } finally {
      await env.close();
    }
  });
});
