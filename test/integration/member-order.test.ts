// Response bodies in the member order kube writes them, over raw HTTP: a Pod sent with its keys
// sorted (as kubectl sends them) comes back from a get, a list and a watch in its Go structs' field
// order at every level; a custom resource (a Go map in kube) comes back with its keys sorted at every
// level, its resourceVersion among them; a Status error keeps kube's order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { RawHttp } from './support/raw-http.js';
import { inSortedMemberOrder } from '../../src/machinery/json/sorted-members.js';

let server: CapstanServer;
const raw = new RawHttp(() => server);
const { call, firstWatchLine } = raw;

type Obj = Record<string, unknown>;
const keys = (v: unknown): string[] => Object.keys(v as Obj);

// k8s.io/api/core/v1's struct field order (types.go).
const goOrder: Record<string, string[]> = {
  PodSpec: [
    'volumes',
    'initContainers',
    'containers',
    'ephemeralContainers',
    'restartPolicy',
    'terminationGracePeriodSeconds',
    'activeDeadlineSeconds',
    'dnsPolicy',
    'nodeSelector',
    'serviceAccountName',
    'serviceAccount',
    'automountServiceAccountToken',
    'nodeName',
    'hostNetwork',
    'hostPID',
    'hostIPC',
    'shareProcessNamespace',
    'securityContext',
    'imagePullSecrets',
    'hostname',
    'subdomain',
    'affinity',
    'schedulerName',
    'tolerations',
    'hostAliases',
    'priorityClassName',
    'priority',
    'dnsConfig',
    'readinessGates',
    'runtimeClassName',
    'enableServiceLinks',
    'preemptionPolicy',
    'overhead',
    'topologySpreadConstraints',
    'setHostnameAsFQDN',
    'os',
    'hostUsers',
    'schedulingGates',
    'resourceClaims',
    'resources',
  ],
  Container: [
    'name',
    'image',
    'command',
    'args',
    'workingDir',
    'ports',
    'envFrom',
    'env',
    'resources',
    'resizePolicy',
    'restartPolicy',
    'volumeMounts',
    'volumeDevices',
    'livenessProbe',
    'readinessProbe',
    'startupProbe',
    'lifecycle',
    'terminationMessagePath',
    'terminationMessagePolicy',
    'imagePullPolicy',
    'securityContext',
    'stdin',
    'stdinOnce',
    'tty',
  ],
  ContainerPort: ['name', 'hostPort', 'containerPort', 'protocol', 'hostIP'],
  SecurityContext: [
    'capabilities',
    'privileged',
    'seLinuxOptions',
    'windowsOptions',
    'runAsUser',
    'runAsGroup',
    'runAsNonRoot',
    'readOnlyRootFilesystem',
    'allowPrivilegeEscalation',
    'procMount',
    'seccompProfile',
    'appArmorProfile',
  ],
};

/** The members of `obj` in the Go order of `type` (every one of them known to it). */
function assertGoOrder(obj: unknown, type: string): void {
  const order = goOrder[type] ?? [];
  const present = keys(obj);
  assert.deepEqual(
    present,
    order.filter((k) => present.includes(k)),
    type,
  );
}

function assertPodInGoOrder(pod: unknown): void {
  const p = pod as { spec: { containers: Obj[] } };
  assert.deepEqual(keys(pod).slice(0, 3), ['kind', 'apiVersion', 'metadata']);
  assertGoOrder(p.spec, 'PodSpec');
  const container = p.spec.containers[0];
  assertGoOrder(container, 'Container');
  assertGoOrder((container?.['ports'] as Obj[])[0], 'ContainerPort');
  assertGoOrder(container?.['securityContext'], 'SecurityContext');
}

const sortedPod = inSortedMemberOrder({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'ordered', labels: { tier: 'web', app: 'shop' } },
  spec: {
    restartPolicy: 'Always',
    containers: [
      {
        name: 'web',
        image: 'nginx',
        ports: [{ protocol: 'TCP', name: 'http', containerPort: 80 }],
        securityContext: { runAsUser: 1000, privileged: false, allowPrivilegeEscalation: false },
        env: [{ value: 'x', name: 'A' }],
        args: ['-g'],
      },
    ],
    initContainers: [{ name: 'init', image: 'busybox' }],
    volumes: [{ name: 'data', emptyDir: {} }],
  },
});

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
      {
        // Served from v1's storage, with a default added on read.
        name: 'v1beta1',
        served: true,
        storage: false,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-preserve-unknown-fields': true,
                properties: { mode: { type: 'string', default: 'auto' } },
              },
            },
          },
        },
      },
    ],
  },
};

const pods = '/api/v1/namespaces/default/pods';
const gadgets = '/apis/example.com/v1/namespaces/default/gadgets';

describe('member order of response bodies', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const created = await call('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      method: 'POST',
      body: crd,
    });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    raw.close();
    await server.stop();
  });

  it('a Pod sent with sorted keys comes back from create, get, list and watch in Go order', async () => {
    const created = await call(pods, { method: 'POST', body: sortedPod });
    assert.equal(created.status, 201, created.text);
    const got = await call(`${pods}/ordered`);
    assert.equal(got.status, 200);
    assert.equal(got.text, created.text);
    const pod = JSON.parse(got.text) as { metadata: { resourceVersion: string } };
    assertPodInGoOrder(pod);
    assert.deepEqual(keys((pod as unknown as { metadata: { labels: Obj } }).metadata.labels), [
      'app',
      'tier',
    ]);
    const list = JSON.parse((await call(pods)).text) as { items: Obj[] };
    const item = list.items.find((i) => (i['metadata'] as { name: string }).name === 'ordered');
    // A list's items go without their kind and apiVersion, as kube's typed lists have them.
    const { kind: _kind, apiVersion: _apiVersion, ...untyped } = JSON.parse(got.text) as Obj;
    assert.equal(JSON.stringify(item), JSON.stringify(untyped));
    const line = await firstWatchLine(
      `${pods}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Dordered`,
    );
    const event = JSON.parse(line) as { type: string; object: unknown };
    assert.equal(event.type, 'ADDED');
    assert.equal(JSON.stringify(event.object), got.text.trimEnd());
  });

  it('a custom resource comes back from get, list and watch with sorted keys and its resourceVersion among them', async () => {
    const created = await call(gadgets, {
      method: 'POST',
      body: {
        kind: 'Gadget',
        apiVersion: 'example.com/v1',
        metadata: { name: 'g', labels: { z: '1', a: '2' } },
        spec: { size: 2, color: 'red', parts: [{ weight: 1, name: 'p' }] },
      },
    });
    assert.equal(created.status, 201, created.text);
    const got = await call(`${gadgets}/g`);
    assert.equal(got.text, created.text);
    const gadget = JSON.parse(got.text) as { metadata: Obj };
    assert.equal(JSON.stringify(gadget), JSON.stringify(inSortedMemberOrder(gadget)));
    assert.deepEqual(keys(gadget).slice(0, 3), ['apiVersion', 'kind', 'metadata']);
    const meta = keys(gadget.metadata);
    assert.ok(meta.includes('resourceVersion') && meta.includes('uid'));
    // The list is kube's UnstructuredList, a map: its members sorted, `continue` always there.
    const listed = (await call(gadgets)).text;
    const list = JSON.parse(listed) as { items: Obj[]; metadata: { resourceVersion: string } };
    assert.equal(
      listed,
      `{"apiVersion":"example.com/v1","items":[${got.text.trimEnd()}],"kind":"GadgetList",` +
        `"metadata":{"continue":"","resourceVersion":"${list.metadata.resourceVersion}"}}\n`,
    );
    // Another version, defaulted on read: sorted all the same.
    const beta = await call(`${gadgets.replace('/v1/', '/v1beta1/')}/g`);
    assert.equal(beta.status, 200, beta.text);
    const defaulted = JSON.parse(beta.text) as { spec: Obj };
    assert.equal(defaulted.spec['mode'], 'auto');
    assert.equal(JSON.stringify(defaulted), JSON.stringify(inSortedMemberOrder(defaulted)));
    // Its list, and a pretty list, are built from objects rather than stored bytes: the same order.
    for (const path of [gadgets.replace('/v1/', '/v1beta1/'), `${gadgets}?pretty=true`]) {
      const other = (await call(path)).text;
      assert.equal(
        JSON.stringify(JSON.parse(other)),
        JSON.stringify(inSortedMemberOrder(JSON.parse(other))),
        path,
      );
      assert.ok(other.includes('"continue"'), path);
    }
    const line = await firstWatchLine(`${gadgets}?watch=1&resourceVersion=0`);
    const event = JSON.parse(line) as { type: string; object: unknown };
    assert.equal(event.type, 'ADDED');
    assert.equal(JSON.stringify(event.object), got.text.trimEnd());
  });

  it('a Status error keeps kube’s order', async () => {
    const missing = await call(`${pods}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(
      missing.text.trimEnd(),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"nope\\" not found",' +
        '"reason":"NotFound","details":{"name":"nope","kind":"pods"},"code":404}',
    );
  });
});
