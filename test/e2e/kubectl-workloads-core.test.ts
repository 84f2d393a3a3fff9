// The real kubectl against one Capstan process: replicationcontrollers with their scale
// subresource (`kubectl scale` sends a JSON merge patch to .../scale), podtemplates, limitranges and
// resourcequotas (`kubectl create quota`), with kube's table columns and texts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { isAge, namespace, tableRows } from './support/kube-objects.js';

const ns = 'e2e-workloads';

const replicationController = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name: 'web', namespace: ns },
  spec: {
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
    },
  },
};

const podTemplate = {
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name: 'tpl', namespace: ns },
  template: {
    metadata: { labels: { app: 'batch' } },
    spec: { containers: [{ name: 'job', image: 'busybox:1.36' }] },
  },
};

const limitRange = {
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: ns },
  spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '100m' } }] },
};

describe('kubectl against capstan: replicationcontrollers, podtemplates, limitranges, resourcequotas', () => {
  let capstan: CapstanProcess;
  let dir: string;
  const { kubectl, ok } = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
    dir = await mkdtemp(join(tmpdir(), 'capstan-workloads-'));
    assert.equal(await ok(['create', '-f', '-'], JSON.stringify(namespace(ns))), `namespace/${ns} created\n`);
  });

  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a replication controller from YAML with kube defaults', async () => {
    const path = join(dir, 'rc.yaml');
    await writeFile(path, toYaml(replicationController));
    assert.equal(await ok(['create', '-f', path]), 'replicationcontroller/web created\n');
    const rc = JSON.parse(await ok(['get', 'rc', 'web', '-n', ns, '-o', 'json'])) as {
      metadata: { labels?: Record<string, string>; generation?: number };
      spec: { replicas?: number; selector?: Record<string, string> };
      status: { replicas?: number };
    };
    assert.deepEqual(rc.spec.selector, { app: 'web' });
    assert.deepEqual(rc.metadata.labels, { app: 'web' });
    assert.equal(rc.spec.replicas, 1);
    assert.equal(rc.metadata.generation, 1);
    assert.deepEqual(rc.status, { replicas: 0 });
    const rows = tableRows(await ok(['get', 'rc', '-n', ns]));
    assert.deepEqual(rows[0], ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    assert.deepEqual(rows[1]?.slice(0, 4), ['web', '1', '0', '0']);
    assert.ok(isAge(rows[1][4]), `age ${rows[1][4] ?? ''}`);
  });

  it('kubectl scale rc goes through the scale subresource; get shows DESIRED 3', async () => {
    assert.equal(
      await ok(['scale', 'rc', 'web', '--replicas=3', '-n', ns]),
      'replicationcontroller/web scaled\n',
    );
    const rows = tableRows(await ok(['get', 'rc', 'web', '-n', ns, '-o', 'wide']));
    assert.deepEqual(rows[0], [
      'NAME',
      'DESIRED',
      'CURRENT',
      'READY',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    assert.deepEqual(rows[1]?.slice(0, 4), ['web', '3', '0', '0']);
    assert.deepEqual(rows[1].slice(5), ['nginx', 'nginx:1.25', 'app=web']);
    assert.equal(await ok(['get', 'rc', 'web', '-n', ns, '-o', 'jsonpath={.metadata.generation}']), '2');
    const scale = JSON.parse(
      await ok(['get', '--raw', `/api/v1/namespaces/${ns}/replicationcontrollers/web/scale`]),
    ) as {
      apiVersion: string;
      kind: string;
      spec: { replicas: number };
      status: { replicas: number; selector: string };
    };
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.kind, 'Scale');
    assert.deepEqual(scale.spec, { replicas: 3 });
    assert.deepEqual(scale.status, { replicas: 0, selector: 'app=web' });
  });

  it('gets and patches the scale subresource directly, with kube errors', async () => {
    const rows = tableRows(await ok(['get', 'rc', 'web', '-n', ns, '--subresource=scale']));
    assert.deepEqual(rows[0], ['NAME', 'DESIRED', 'AVAILABLE', 'AGE']);
    assert.deepEqual(rows[1]?.slice(0, 3), ['web', '3', '0']);
    const patch = ['patch', 'rc', 'web', '-n', ns, '--subresource=scale', '--type=merge'];
    // kubectl names what the server answered with: the Scale.
    assert.equal(await ok([...patch, '-p', '{"spec":{"replicas":2}}']), 'scale.autoscaling/web patched\n');
    assert.equal(await ok(['get', 'rc', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}']), '2');
    const bad = await kubectl([...patch, '-p', '{"spec":{"replicas":-1}}']);
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /Scale "web" is invalid: spec\.replicas: Invalid value: -1: must be greater than or equal to 0/,
    );
    const missing = await kubectl([
      'get',
      '--raw',
      `/api/v1/namespaces/${ns}/replicationcontrollers/nope/scale`,
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /NotFound/);
  });

  it('kubectl create quota, limit ranges and pod templates, then get them all at once', async () => {
    assert.equal(await ok(['create', 'quota', 'q', '--hard=pods=10', '-n', ns]), 'resourcequota/q created\n');
    assert.equal(await ok(['create', '-f', '-'], toYaml(limitRange)), 'limitrange/lr created\n');
    assert.equal(await ok(['create', '-f', '-'], toYaml(podTemplate)), 'podtemplate/tpl created\n');
    const quota = JSON.parse(await ok(['get', 'quota', 'q', '-n', ns, '-o', 'json'])) as {
      spec: { hard: Record<string, string> };
    };
    assert.deepEqual(quota.spec.hard, { pods: '10' });
    const lr = JSON.parse(await ok(['get', 'limits', 'lr', '-n', ns, '-o', 'json'])) as {
      spec: { limits: { default?: Record<string, string>; defaultRequest?: Record<string, string> }[] };
    };
    assert.deepEqual(lr.spec.limits[0]?.default, { cpu: '2' });
    assert.deepEqual(lr.spec.limits[0].defaultRequest, { cpu: '2' });

    const out = await ok(['get', 'quota,limits,podtemplates,rc', '-n', ns]);
    const tables = out.split('\n\n').map(tableRows);
    assert.equal(tables.length, 4, out);
    assert.deepEqual(tables[0]?.[0], ['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    assert.equal(tables[0][1]?.[0], 'resourcequota/q');
    assert.deepEqual(tables[1]?.[0], ['NAME', 'CREATED', 'AT']);
    assert.equal(tables[1][1]?.[0], 'limitrange/lr');
    assert.deepEqual(tables[2]?.[0], ['NAME', 'CONTAINERS', 'IMAGES', 'POD', 'LABELS']);
    assert.deepEqual(tables[2][1], ['podtemplate/tpl', 'job', 'busybox:1.36', 'app=batch']);
    assert.deepEqual(tables[3]?.[0], ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    assert.deepEqual(tables[3][1]?.slice(0, 4), ['replicationcontroller/web', '2', '0', '0']);
  });

  it('lists replication controllers under `all`, and refuses an invalid one as kube words it', async () => {
    const all = await ok(['get', 'all', '-n', ns, '-o', 'name']);
    assert.match(all, /^replicationcontroller\/web$/m);
    const bad = structuredClone(replicationController);
    bad.metadata.name = 'bad';
    Object.assign(bad.spec, { selector: { app: 'other' } });
    const r = await kubectl(['create', '-f', '-'], toYaml(bad));
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /ReplicationController "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: \{"app":"web"\}: `selector` does not match template `labels`/,
    );
  });

  it("prints the server's pod warnings (pkg/api/pod/warnings.go) for a pod and a controller's template", async () => {
    const spec = {
      nodeSelector: { 'beta.kubernetes.io/os': 'linux' },
      containers: [
        {
          name: 'app',
          image: 'nginx:1.25',
          env: [
            { name: 'MODE', value: 'a' },
            { name: 'MODE', value: 'b' },
          ],
        },
      ],
    };
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'warned', namespace: ns }, spec };
    const created = await kubectl(['create', '-f', '-'], JSON.stringify(pod));
    assert.deepEqual(
      [created.code, created.stdout, created.stderr],
      [
        0,
        'pod/warned created\n',
        'Warning: spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead\n' +
          'Warning: spec.containers[0].env[1]: hides previous definition of "MODE", which may be dropped when using apply\n',
      ],
    );
    const rc = structuredClone(replicationController);
    rc.metadata.name = 'warned.rc';
    Object.assign(rc.spec.template.spec, { nodeSelector: spec.nodeSelector });
    const controller = await kubectl(['create', '-f', '-'], toYaml(rc));
    assert.deepEqual(
      [controller.code, controller.stdout, controller.stderr],
      [
        0,
        'replicationcontroller/warned.rc created\n',
        'Warning: metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]\n' +
          'Warning: spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead\n',
      ],
    );
  });
});
