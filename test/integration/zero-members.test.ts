// Members kube writes though nobody sent them, through raw HTTP: a pod template's metadata (a
// metav1.ObjectMeta held by value) carries "creationTimestamp":null, because metav1.Time is a struct
// that omitempty never leaves out and whose zero value is written as null (k8s.io/apimachinery 1.33
// meta/v1 time.go; k8s.io/api 1.33 apps/v1 types.go, no omitzero anywhere). The zero time is one value
// in memory whether the JSON had null or nothing: a StatefulSet read back from storage (with the
// null) and the same StatefulSet decoded from a request (without it) compare equal, so its updates,
// patches and re-applies that change nothing forbidden pass the immutable-spec check.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { RawHttp } from './support/raw-http.js';

let server: CapstanServer;
const raw = new RawHttp(() => server);
const { call, firstWatchObject } = raw;

/** The body text with the metadata members the server sets (their values vary) replaced by "…". */
function withoutServerMeta(text: string): string {
  const obj = JSON.parse(text) as { metadata: Record<string, unknown> };
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation']) {
    if (k in obj.metadata) obj.metadata[k] = '…';
  }
  return JSON.stringify(obj);
}

const META = '"uid":"…","resourceVersion":"…","generation":"…","creationTimestamp":"…"';
const CONTAINER =
  '{"name":"c","image":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}';
const POD_SPEC =
  `{"containers":[${CONTAINER}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,` +
  '"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}';

// As kubectl 1.33 sends `kubectl create deployment web --image=nginx`: its Go client writes the
// zero members too.
const deploymentBody =
  '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","creationTimestamp":null,"labels":{"app":"web"}},' +
  '"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},' +
  '"spec":{"containers":[{"name":"c","image":"nginx","resources":{}}]}},"strategy":{}},"status":{}}';
const DEPLOYMENT =
  `{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default",${META},"labels":{"app":"web"},"managedFields":"…"},` +
  '"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},' +
  `"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":${POD_SPEC}},` +
  '"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600},"status":{}}';

// A manifest as people write one: no creationTimestamp anywhere.
const statefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db' },
  spec: {
    serviceName: 'db',
    selector: { matchLabels: { app: 'db' } },
    template: {
      metadata: { labels: { app: 'db' } },
      spec: {
        containers: [{ name: 'c', image: 'nginx', volumeMounts: [{ name: 'data', mountPath: '/d' }] }],
      },
    },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ],
  },
};
const STATEFULSET_SPEC_HEAD =
  '"spec":{"replicas":1,"selector":{"matchLabels":{"app":"db"}},' +
  '"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"db"}},' +
  '"spec":{"containers":[{"name":"c","image":"nginx","resources":{},"volumeMounts":[{"name":"data","mountPath":"/d"}],' +
  '"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],' +
  '"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}},' +
  '"volumeClaimTemplates":[{"metadata":{"name":"data","creationTimestamp":null},' +
  '"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"},"status":{"phase":"Pending"}}],';

const path = '/apis/apps/v1/namespaces/default/statefulsets';

async function generation(name: string): Promise<number> {
  const got = await call(`${path}/${name}`);
  assert.equal(got.status, 200, got.text);
  return (JSON.parse(got.text) as { metadata: { generation: number } }).metadata.generation;
}

describe('members kube writes though nobody sent them', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    raw.close();
    await server.stop();
  });

  it('a Deployment: the pod template metadata has "creationTimestamp":null in create, get, watch and a list', async () => {
    const collection = '/apis/apps/v1/namespaces/default/deployments';
    const created = await call(collection, { method: 'POST', text: deploymentBody });
    assert.equal(created.status, 201, created.text);
    const got = await call(`${collection}/web`);
    const watched = await firstWatchObject(
      `${collection}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Dweb`,
    );
    const list = await call(`${collection}?pretty=true`);
    const item = (JSON.parse(list.text) as { items: unknown[] }).items[0];
    for (const [what, text] of [
      ['create', created.text],
      ['get', got.text],
      ['watch', watched],
      ['a list decoded for pretty printing', JSON.stringify(item)],
    ] as const) {
      // A list's items are written without their kind and apiVersion, as kube writes them.
      const want = what.startsWith('a list')
        ? DEPLOYMENT.replace('"kind":"Deployment","apiVersion":"apps/v1",', '')
        : DEPLOYMENT;
      assert.equal(withoutServerMeta(text), want, what);
    }
  });

  it('a watch bookmark: kube’s empty object of the kind, every zero member Go writes included', async () => {
    const query =
      '?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
    const bookmark = async (collection: string): Promise<string> => {
      const line = await raw.firstWatchLine(`${collection}${query}`);
      const obj = JSON.parse(line) as { object: { metadata: { resourceVersion: string } } };
      return line.replace(
        `"resourceVersion":"${obj.object.metadata.resourceVersion}"`,
        '"resourceVersion":"…"',
      );
    };
    const meta =
      '"metadata":{"resourceVersion":"…","creationTimestamp":null,"annotations":{"k8s.io/initial-events-end":"true"}}';
    assert.equal(
      await bookmark('/api/v1/namespaces/none/pods'),
      `{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1",${meta},"spec":{"containers":null},"status":{}}}`,
    );
    assert.equal(
      await bookmark('/apis/apps/v1/namespaces/none/deployments'),
      `{"type":"BOOKMARK","object":{"kind":"Deployment","apiVersion":"apps/v1",${meta},` +
        '"spec":{"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"strategy":{}},"status":{}}}',
    );
  });

  it('a StatefulSet: its template and claim templates have "creationTimestamp":null', async () => {
    const created = await call(path, { method: 'POST', body: statefulSet });
    assert.equal(created.status, 201, created.text);
    const got = await call(`${path}/db`);
    for (const text of [created.text, got.text]) {
      assert.ok(withoutServerMeta(text).includes(STATEFULSET_SPEC_HEAD), text);
    }
  });

  it('an EndpointSlice sent without endpoints: "endpoints":null as its nil slice, not []', async () => {
    const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
    const body = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'bare' },
      addressType: 'IPv4',
    };
    const created = await call(slices, { method: 'POST', body });
    assert.equal(created.status, 201, created.text);
    const got = await call(`${slices}/bare`);
    for (const text of [created.text, got.text]) {
      assert.match(text, /"addressType":"IPv4","endpoints":null,"ports":null\}\n?$/, text);
    }
  });

  it('a StatefulSet read back (null) and sent again (absent or null) is unchanged: PUT, patches and re-apply pass', async () => {
    const start = await generation('db');
    // PUT of what a GET answered, creationTimestamp null included: nothing changes.
    const got = await call(`${path}/db`);
    const put = await call(`${path}/db`, { method: 'PUT', text: got.text });
    assert.equal(put.status, 200, put.text);
    assert.equal(await generation('db'), start);
    // Server-side apply of the manifest, which has no creationTimestamp: nothing changes.
    const apply = await call(`${path}/db?fieldManager=kubectl&force=true`, {
      method: 'PATCH',
      contentType: 'application/apply-patch+yaml',
      body: statefulSet,
    });
    assert.equal(apply.status, 200, apply.text);
    assert.equal(await generation('db'), start);
    // Patches of fields a StatefulSet may change pass; each bumps the generation once.
    const patches = [
      ['application/merge-patch+json', { spec: { replicas: 2 } }],
      [
        'application/strategic-merge-patch+json',
        { spec: { template: { metadata: { labels: { tier: 'x' } } } } },
      ],
      [
        // Applied to the object's JSON encoding, as kube applies it: the zero creationTimestamp is there.
        'application/json-patch+json',
        [
          { op: 'test', path: '/spec/template/metadata/creationTimestamp', value: null },
          { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'httpd' },
        ],
      ],
    ] as const;
    for (const [contentType, body] of patches) {
      const patched = await call(`${path}/db`, { method: 'PATCH', contentType, body });
      assert.equal(patched.status, 200, `${contentType}: ${patched.text}`);
    }
    assert.equal(await generation('db'), start + 3);
    // A change kube forbids is still refused.
    const forbidden = await call(`${path}/db`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { spec: { serviceName: 'other' } },
    });
    assert.equal(forbidden.status, 422, forbidden.text);
    assert.match(forbidden.text, /updates to statefulset spec for fields other than/);
  });

  // Every apps and batch kind with a pod template (a Job's is immutable): what a GET answered, PUT
  // back, and the manifest applied again change nothing, so the generation stays.
  const podTemplate = (app: string, restartPolicy?: string): Record<string, unknown> => ({
    metadata: { labels: { app } },
    spec: {
      containers: [{ name: 'c', image: 'nginx' }],
      ...(restartPolicy === undefined ? {} : { restartPolicy }),
    },
  });
  const kinds: readonly { collection: string; manifest: Record<string, unknown> }[] = [
    {
      collection: '/apis/apps/v1/namespaces/default/deployments',
      manifest: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'same-d' },
        spec: { selector: { matchLabels: { app: 'd' } }, template: podTemplate('d') },
      },
    },
    {
      collection: '/apis/apps/v1/namespaces/default/replicasets',
      manifest: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'same-r' },
        spec: { selector: { matchLabels: { app: 'r' } }, template: podTemplate('r') },
      },
    },
    {
      collection: '/apis/apps/v1/namespaces/default/daemonsets',
      manifest: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'same-ds' },
        spec: { selector: { matchLabels: { app: 'ds' } }, template: podTemplate('ds') },
      },
    },
    {
      collection: '/apis/batch/v1/namespaces/default/jobs',
      manifest: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'same-j' },
        spec: { template: podTemplate('j', 'Never') },
      },
    },
    {
      collection: '/apis/batch/v1/namespaces/default/cronjobs',
      manifest: {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'same-cj' },
        spec: {
          schedule: '*/5 * * * *',
          jobTemplate: { spec: { template: podTemplate('cj', 'OnFailure') } },
        },
      },
    },
    {
      collection: '/api/v1/namespaces/default/replicationcontrollers',
      manifest: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'same-rc' },
        spec: { selector: { app: 'rc' }, template: podTemplate('rc') },
      },
    },
  ];
  for (const { collection, manifest } of kinds) {
    it(`a ${String(manifest['kind'])} read back and sent again keeps its generation`, async () => {
      const name = (manifest['metadata'] as { name: string }).name;
      const created = await call(collection, { method: 'POST', body: manifest });
      assert.equal(created.status, 201, created.text);
      assert.match(created.text, /"template":\{"metadata":\{"creationTimestamp":null,/);
      const gen = (text: string): unknown =>
        (JSON.parse(text) as { metadata: { generation: unknown } }).metadata.generation;
      const got = await call(`${collection}/${name}`);
      const put = await call(`${collection}/${name}`, { method: 'PUT', text: got.text });
      assert.equal(put.status, 200, put.text);
      assert.equal(gen(put.text), gen(created.text));
      const apply = await call(`${collection}/${name}?fieldManager=kubectl&force=true`, {
        method: 'PATCH',
        contentType: 'application/apply-patch+yaml',
        body: manifest,
      });
      assert.equal(apply.status, 200, apply.text);
      assert.equal(gen(apply.text), gen(created.text));
    });
  }
});
