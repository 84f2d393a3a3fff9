// List answers as kube-apiserver 1.33 writes them: the items of a list of a built-in kind carry no
// kind or apiVersion (the typed list's items have an empty TypeMeta, which Go's encoder omits), in
// every encoding and whether served from the watch cache or from storage; custom resources'
// items keep theirs; Tables and watch events keep the types of the objects they carry. Objects are
// served in kube's member order: kind, apiVersion, ObjectMeta in Go order, then the kind's members.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { waitFor } from './support/wait-for.js';

type Obj = Record<string, unknown>;

describe('list items and their kind', () => {
  let server: InProcessServer;
  const cms = '/api/v1/namespaces/default/configmaps';
  const widgets = '/apis/example.com/v1/namespaces/default/widgets';

  before(async () => {
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
    });
    // One sent with its type first, one with it last, one without.
    await server.json(cms, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } },
    });
    await server.json(cms, {
      method: 'POST',
      body: { metadata: { name: 'b' }, apiVersion: 'v1', kind: 'ConfigMap' },
    });
    await server.json(cms, { method: 'POST', body: { metadata: { name: 'c' }, data: { x: 'y' } } });
    await server.json('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      method: 'POST',
      body: {
        metadata: { name: 'widgets.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      },
    });
    await waitFor(
      'the widgets to be served',
      () =>
        server.request(widgets, {
          method: 'POST',
          body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } },
        }),
      (res) => res.status === 201,
    );
  });
  after(() => server.stop());

  it('writes built-in items without kind and apiVersion, from the cache, from storage and paged', async () => {
    for (const query of ['', '?resourceVersion=0', '?limit=2', '?pretty=true']) {
      const list = await server.json<{ kind: string; apiVersion: string; items: Obj[] }>(`${cms}${query}`);
      assert.equal(list.kind, 'ConfigMapList');
      assert.equal(list.apiVersion, 'v1');
      for (const item of list.items) {
        assert.deepEqual(
          [item['kind'], item['apiVersion']],
          [undefined, undefined],
          `${query}: ${JSON.stringify(item)}`,
        );
        assert.ok(item['metadata'] !== undefined);
      }
    }
    const yaml = await server.request(cms, { headers: { accept: 'application/yaml' } });
    const items = (parse(yaml.body) as { items: Obj[] }).items;
    assert.equal(items.length, 3);
    assert.ok(
      items.every((i) => i['kind'] === undefined && i['apiVersion'] === undefined),
      yaml.body,
    );
  });

  it('serves objects in kube’s member order whatever order they were sent in', async () => {
    const prefix =
      /^\{"kind":"ConfigMap","apiVersion":"v1","metadata":\{"name":"c","namespace":"default","uid":"[^"]+","resourceVersion":"\d+","creationTimestamp":"[^"]+","managedFields":\[.*\]\},"data":\{"x":"y"\}\}\n$/;
    assert.match((await server.request(`${cms}/c`)).body, prefix);
    const events = await server.request(
      `${cms}?watch=1&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dc`,
    );
    const object = JSON.stringify((JSON.parse(events.body.split('\n')[0] ?? '') as { object: Obj }).object);
    assert.match(`${object}\n`, prefix);
  });

  it('keeps the types of custom resource items, of a get, of Table rows and of watch events', async () => {
    const crs = await server.json<{ items: Obj[] }>(widgets);
    assert.deepEqual([crs.items[0]?.['kind'], crs.items[0]?.['apiVersion']], ['Widget', 'example.com/v1']);
    const one = await server.json(`${cms}/a`);
    assert.deepEqual([one['kind'], one['apiVersion']], ['ConfigMap', 'v1']);
    const table = await server.json<{ rows: { object: Obj }[] }>(`${cms}?includeObject=Object`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    assert.equal(table.rows[0]?.object['kind'], 'ConfigMap');
    const events = await server.request(`${cms}?watch=1&resourceVersion=0&timeoutSeconds=1`);
    const first = JSON.parse(events.body.split('\n')[0] ?? '') as { object: Obj };
    assert.deepEqual([first.object['kind'], first.object['apiVersion']], ['ConfigMap', 'v1']);
  });
});
