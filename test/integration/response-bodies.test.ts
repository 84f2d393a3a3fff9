// Response bodies byte for byte as kube-apiserver writes them from its Go structs: members in
// struct order (k8s.io/apimachinery/pkg/apis/meta/v1/types.go, apidiscovery/v2) and `omitempty`
// members left out when empty. Clients compare error bodies as bytes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

/** A struct's members in Go order; nested structs by member name, slices of structs likewise. */
interface GoStruct {
  readonly members: readonly string[];
  readonly nested?: Readonly<Record<string, GoStruct>>;
}

const listMeta: GoStruct = { members: ['selfLink', 'resourceVersion', 'continue', 'remainingItemCount'] };
const groupVersionForDiscovery: GoStruct = { members: ['groupVersion', 'version'] };
const apiGroup: GoStruct = {
  members: ['kind', 'apiVersion', 'name', 'versions', 'preferredVersion', 'serverAddressByClientCIDRs'],
  nested: { versions: groupVersionForDiscovery, preferredVersion: groupVersionForDiscovery },
};
const apiResource: GoStruct = {
  members: [
    'name',
    'singularName',
    'namespaced',
    'group',
    'version',
    'kind',
    'verbs',
    'shortNames',
    'categories',
    'storageVersionHash',
  ],
};
const gvk: GoStruct = { members: ['group', 'version', 'kind'] };
const resourceDiscovery: GoStruct = {
  members: [
    'resource',
    'responseKind',
    'scope',
    'singularResource',
    'verbs',
    'shortNames',
    'categories',
    'subresources',
  ],
  nested: {
    responseKind: gvk,
    subresources: {
      members: ['subresource', 'responseKind', 'acceptedTypes', 'verbs'],
      nested: { responseKind: gvk },
    },
  },
};
const structs = {
  apiGroupList: { members: ['kind', 'apiVersion', 'groups'], nested: { groups: apiGroup } },
  apiResourceList: {
    members: ['kind', 'apiVersion', 'groupVersion', 'resources'],
    nested: { resources: apiResource },
  },
  groupDiscoveryList: {
    members: ['kind', 'apiVersion', 'metadata', 'items'],
    nested: {
      metadata: listMeta,
      items: {
        members: ['kind', 'apiVersion', 'metadata', 'versions'],
        nested: {
          metadata: { members: ['name', 'creationTimestamp'] },
          versions: {
            members: ['version', 'resources', 'freshness'],
            nested: { resources: resourceDiscovery },
          },
        },
      },
    },
  },
  table: {
    members: ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows'],
    nested: {
      metadata: listMeta,
      columnDefinitions: { members: ['name', 'type', 'format', 'description', 'priority'] },
      rows: { members: ['cells', 'conditions', 'object'] },
    },
  },
} satisfies Record<string, GoStruct>;

/** The value with every struct's members in Go order (members the struct does not name last). */
function goOrdered(value: unknown, s: GoStruct): unknown {
  if (Array.isArray(value)) return value.map((v) => goOrdered(v, s));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const names = [
    ...s.members.filter((m) => m in obj),
    ...Object.keys(obj).filter((k) => !s.members.includes(k)),
  ];
  for (const name of names) {
    const inner = s.nested?.[name];
    out[name] = inner === undefined ? obj[name] : goOrdered(obj[name], inner);
  }
  return out;
}

/** JSON as Go's encoder writes it: compact, HTML characters escaped, newline-terminated. */
const goJSON = (value: unknown): string =>
  `${JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

/** Asserts the body is already in Go's order: re-ordering it changes no byte. */
function assertGoOrder(body: string, s: GoStruct): void {
  assert.equal(body, goJSON(goOrdered(JSON.parse(body), s)));
}

const configMap = (name: string): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: {
    selector: { matchLabels: { app: 'd' } },
    template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
};
const status = (rest: string): string =>
  `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",${rest}}\n`;

describe('response bodies in kube-apiserver bytes', () => {
  let server: InProcessServer;
  const cms = '/api/v1/namespaces/default/configmaps';
  before(async () => {
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
    });
    for (const name of ['a', 'b', 'c']) await server.json(cms, { method: 'POST', body: configMap(name) });
  });
  after(async () => {
    await server.stop();
  });

  it('writes a NotFound Status without a group for the core group, with it for others', async () => {
    const core = await server.request(`${cms}/nope`);
    assert.equal(core.status, 404);
    assert.equal(
      core.body,
      status(
        '"message":"configmaps \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"configmaps"},"code":404',
      ),
    );
    const apps = await server.request('/apis/apps/v1/namespaces/default/deployments/nope');
    assert.equal(
      apps.body,
      status(
        '"message":"deployments.apps \\"nope\\" not found","reason":"NotFound",' +
          '"details":{"name":"nope","group":"apps","kind":"deployments"},"code":404',
      ),
    );
  });

  it('writes AlreadyExists, and Invalid with its causes, in Go order', async () => {
    const exists = await server.request(cms, { method: 'POST', body: configMap('a') });
    assert.equal(
      exists.body,
      status(
        '"message":"configmaps \\"a\\" already exists","reason":"AlreadyExists",' +
          '"details":{"name":"a","kind":"configmaps"},"code":409',
      ),
    );
    const invalid = await server.request(cms, { method: 'POST', body: configMap('A_') });
    const detail =
      'Invalid value: "A_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, ' +
      "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for " +
      "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    assert.equal(
      invalid.body,
      status(
        `"message":${JSON.stringify(`ConfigMap "A_" is invalid: metadata.name: ${detail}`)},"reason":"Invalid",` +
          `"details":{"name":"A_","kind":"ConfigMap","causes":[{"reason":"FieldValueInvalid",` +
          `"message":${JSON.stringify(detail)},"field":"metadata.name"}]},"code":422`,
      ),
    );
  });

  it('keeps empty details of the 404 for an unknown path and writes a filter Status in Go order', async () => {
    const unknown = await server.request('/apis/nope.example.com/v1/things');
    assert.equal(
      unknown.body,
      status(
        '"message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404',
      ),
    );
    const res = await fetch(`${server.url}${cms}`);
    assert.equal(res.status, 401);
    assert.equal(await res.text(), status('"message":"Unauthorized","reason":"Unauthorized","code":401'));
  });

  it('answers a delete with a Success Status without a code', async () => {
    const cm = await server.json<{ metadata: { uid: string } }>(cms, {
      method: 'POST',
      body: configMap('gone'),
    });
    const deleted = await server.request(`${cms}/gone`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal(
      deleted.body,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",' +
        `"details":{"name":"gone","kind":"configmaps","uid":"${cm.metadata.uid}"}}\n`,
    );
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const d = await server.json<{ metadata: { uid: string } }>(deployments, {
      method: 'POST',
      body: deployment,
    });
    const gone = await server.request(`${deployments}/d`, { method: 'DELETE' });
    assert.equal(
      gone.body,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",' +
        `"details":{"name":"d","group":"apps","kind":"deployments","uid":"${d.metadata.uid}"}}\n`,
    );
  });

  it('writes a list as kind, apiVersion, metadata, items, compact or pretty', async () => {
    const page = await server.request(`${cms}?limit=1`);
    const list = JSON.parse(page.body) as {
      metadata: { resourceVersion: string; continue: string };
      items: unknown[];
    };
    const head =
      `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"${list.metadata.resourceVersion}",` +
      `"continue":"${list.metadata.continue}","remainingItemCount":2},"items":[`;
    assert.equal(page.body, `${head}${list.items.map((i) => JSON.stringify(i)).join(',')}]}\n`);
    const pretty = await server.request(`${cms}?limit=1&pretty=true`);
    const expected = {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: {
        resourceVersion: list.metadata.resourceVersion,
        continue: list.metadata.continue,
        remainingItemCount: 2,
      },
      items: list.items,
    };
    assert.equal(pretty.body, JSON.stringify(expected, null, 2));
  });

  it('writes a Table as kind, apiVersion, metadata, columnDefinitions, rows', async () => {
    const res = await server.request(`${cms}?limit=1`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    assert.equal(res.status, 200);
    assert.match(
      res.body,
      /^\{"kind":"Table","apiVersion":"meta\.k8s\.io\/v1","metadata":\{"resourceVersion":"\d+",/,
    );
    assertGoOrder(res.body, structs.table);
  });

  it('writes discovery documents in Go order', async () => {
    const api = await server.request('/api');
    const host = new URL(server.url).host;
    assert.equal(
      api.body,
      `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"${host}"}]}\n`,
    );
    const apps = await server.request('/apis/apps');
    assert.equal(
      apps.body,
      '{"kind":"APIGroup","apiVersion":"v1","name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],' +
        '"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}\n',
    );
    assertGoOrder((await server.request('/apis')).body, structs.apiGroupList);
    const resources = (await server.request('/apis/apps/v1')).body;
    assertGoOrder(resources, structs.apiResourceList);
    assert.match(
      resources,
      /^\{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps\/v1","resources":\[/,
    );
    assertGoOrder((await server.request('/api/v1')).body, structs.apiResourceList);
    const aggregated = { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' };
    for (const path of ['/api', '/apis']) {
      const doc = await server.request(path, { headers: aggregated });
      assert.match(
        doc.body,
        /^\{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery\.k8s\.io\/v2","metadata":\{\},"items":\[/,
      );
      assertGoOrder(doc.body, structs.groupDiscoveryList);
    }
  });

  it('hashes the storage version of what a registry Store keeps, not of reviews, bindings or statuses', async () => {
    const unhashed = async (path: string): Promise<string[]> => {
      const list = JSON.parse((await server.request(path)).body) as {
        resources: { name: string; storageVersionHash?: string }[];
      };
      return list.resources
        .filter((r) => !r.name.includes('/') && r.storageVersionHash === undefined)
        .map((r) => r.name);
    };
    // As kube-apiserver 1.33 lists them: a hash for every Store (namespaces and services too).
    assert.deepEqual(await unhashed('/api/v1'), ['bindings', 'componentstatuses']);
    assert.deepEqual(await unhashed('/apis/authentication.k8s.io/v1'), [
      'selfsubjectreviews',
      'tokenreviews',
    ]);
    assert.deepEqual(await unhashed('/apis/authorization.k8s.io/v1'), [
      'localsubjectaccessreviews',
      'selfsubjectaccessreviews',
      'selfsubjectrulesreviews',
      'subjectaccessreviews',
    ]);
    assert.deepEqual(await unhashed('/apis/apps/v1'), []);
  });
});
