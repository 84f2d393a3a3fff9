// The default admission plugins over HTTP: what a Pod, a PersistentVolumeClaim and a Node read back
// with on a fresh server, as on kube-apiserver, and --disable-admission-plugins turning one off.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function call(server: CapstanServer, method: string, path: string, body?: unknown): Promise<Reply> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const podBody = (name: string): unknown => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});

const defaultTolerations = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

type Spec = Record<string, unknown>;
const specOf = (r: Reply): Spec => r.body.spec as Spec;
const metaOf = (r: Reply): Spec => r.body.metadata as Spec;

test('a Pod, a PVC and a Node read back with what the default plugins add', async () => {
  const server = await startCapstan({ storage: 'memory', scheme: 'http' });
  try {
    const created = await call(server, 'POST', '/api/v1/namespaces/default/pods', podBody('web'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const pod = await call(server, 'GET', '/api/v1/namespaces/default/pods/web');
    assert.equal(specOf(pod).priority, 0);
    assert.equal(specOf(pod).preemptionPolicy, 'PreemptLowerPriority');
    assert.deepEqual(specOf(pod).tolerations, defaultTolerations);

    const lost = await call(server, 'POST', '/api/v1/namespaces/default/pods', {
      ...(podBody('lost') as object),
      spec: { containers: [{ name: 'app', image: 'nginx' }], priorityClassName: 'nope' },
    });
    assert.equal(lost.status, 403);
    assert.equal(lost.body.message, 'pods "lost" is forbidden: no PriorityClass with name nope was found');

    const sc = await call(server, 'POST', '/apis/storage.k8s.io/v1/storageclasses', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'example.com/disk',
    });
    assert.equal(sc.status, 201, JSON.stringify(sc.body));
    // The plugin reads the watch cache, as kube's reads its informer: wait until it has the class.
    for (;;) {
      const list = await call(server, 'GET', '/apis/storage.k8s.io/v1/storageclasses?resourceVersion=0');
      if ((list.body.items as unknown[]).length > 0) break;
      await sleep(20);
    }
    const pvc = await call(server, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    assert.equal(pvc.status, 201, JSON.stringify(pvc.body));
    const readPVC = await call(server, 'GET', '/api/v1/namespaces/default/persistentvolumeclaims/data');
    assert.deepEqual(metaOf(readPVC).finalizers, ['kubernetes.io/pvc-protection']);
    assert.equal(specOf(readPVC).storageClassName, 'standard');
    // The in-process pvc-protection controller lets an unused claim go.
    assert.equal(
      (await call(server, 'DELETE', '/api/v1/namespaces/default/persistentvolumeclaims/data')).status,
      200,
    );
    const deadline = Date.now() + 5000;
    while (
      (await call(server, 'GET', '/api/v1/namespaces/default/persistentvolumeclaims/data')).status !== 404
    ) {
      assert.ok(Date.now() < deadline, 'the deleted claim is still there');
      await sleep(20);
    }

    const node = await call(server, 'POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'worker-1' },
    });
    assert.equal(node.status, 201, JSON.stringify(node.body));
    const readNode = await call(server, 'GET', '/api/v1/nodes/worker-1');
    assert.deepEqual(specOf(readNode).taints, [
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
  } finally {
    await server.stop();
  }
});

test('--disable-admission-plugins=DefaultTolerationSeconds leaves pods without the tolerations', async () => {
  const server = await startCapstan({
    storage: 'memory',
    scheme: 'http',
    disableAdmissionPlugins: ['DefaultTolerationSeconds'],
  });
  try {
    const created = await call(server, 'POST', '/api/v1/namespaces/default/pods', podBody('web'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const pod = await call(server, 'GET', '/api/v1/namespaces/default/pods/web');
    assert.equal(specOf(pod).tolerations, undefined);
    // The other plugins still run.
    assert.equal(specOf(pod).priority, 0);
  } finally {
    await server.stop();
  }
});

test('an unknown plugin name refuses to start', async () => {
  await assert.rejects(
    startCapstan({ storage: 'memory', scheme: 'http', enableAdmissionPlugins: ['NoSuchPlugin'] }),
    /enable-admission-plugins plugin "NoSuchPlugin" is unknown/,
  );
});
