// The real kubectl against one Capstan process: nodes (create from YAML, get, cordon, uncordon,
// taint), persistent volumes and claims (create from YAML, get pv,pvc, kube's validation text) and
// componentstatuses (the controllers, the storage as etcd-0, with kube's deprecation warning).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { isAge } from './support/kube-objects.js';

const nodeYaml = `apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels:
    node-role.kubernetes.io/worker: ""
status:
  conditions:
  - type: Ready
    status: "True"
  addresses:
  - type: InternalIP
    address: 10.0.0.5
  nodeInfo:
    machineID: m1
    systemUUID: u1
    bootID: b1
    kernelVersion: 6.1.0-18-amd64
    osImage: Debian GNU/Linux 12 (bookworm)
    containerRuntimeVersion: containerd://1.7.13
    kubeletVersion: v1.33.0
    kubeProxyVersion: ""
    operatingSystem: linux
    architecture: amd64
`;

const volumesYaml = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-data
spec:
  capacity:
    storage: 5Gi
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  storageClassName: manual
  hostPath:
    path: /srv/data
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: default
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: manual
  resources:
    requests:
      storage: 1Gi
`;

/** kubectl's table as records keyed by header; columns start where their header does. */
function table(text: string): Record<string, string>[] {
  const [header = '', ...lines] = text.split('\n').filter((l) => l.trim() !== '');
  const starts = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], at: m.index }));
  return lines.map((line) =>
    Object.fromEntries(
      starts.map((c, i) => [c.name, line.slice(c.at, starts[i + 1]?.at ?? line.length).trim()]),
    ),
  );
}

describe('kubectl against capstan: nodes, persistent volumes, componentstatuses', () => {
  let capstan: CapstanProcess;
  const { kubectl, ok } = kubectlSession(() => capstan.kubeconfigPath);
  const node = async (): Promise<Record<string, string>> => {
    const [row] = table(await ok(['get', 'nodes']));
    return row ?? {};
  };

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });

  after(async () => {
    await capstan.stop();
  });

  it('creates a node from YAML and lists it as kubectl get nodes does', async () => {
    assert.equal(await ok(['create', '-f', '-'], nodeYaml), 'node/worker-1 created\n');
    const out = await ok(['get', 'nodes']);
    assert.match(out, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
    const row = await node();
    assert.deepEqual(
      [row['NAME'], row['STATUS'], row['ROLES'], row['VERSION']],
      ['worker-1', 'Ready', 'worker', 'v1.33.0'],
    );
    assert.ok(isAge(row['AGE']), `AGE ${row['AGE'] ?? ''}`);
    const [wide] = table(await ok(['get', 'no', '-o', 'wide']));
    assert.deepEqual(
      [
        wide?.['INTERNAL-IP'],
        wide?.['EXTERNAL-IP'],
        wide?.['OS-IMAGE'],
        wide?.['KERNEL-VERSION'],
        wide?.['CONTAINER-RUNTIME'],
      ],
      ['10.0.0.5', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.1.0-18-amd64', 'containerd://1.7.13'],
    );
  });

  it('cordon and uncordon set spec.unschedulable, shown as SchedulingDisabled and selectable', async () => {
    assert.equal(await ok(['cordon', 'worker-1']), 'node/worker-1 cordoned\n');
    assert.equal((await node())['STATUS'], 'Ready,SchedulingDisabled');
    assert.equal(
      await ok(['get', 'nodes', '--field-selector', 'spec.unschedulable=true', '-o', 'name']),
      'node/worker-1\n',
    );
    assert.equal(await ok(['cordon', 'worker-1']), 'node/worker-1 already cordoned\n');
    assert.equal(await ok(['uncordon', 'worker-1']), 'node/worker-1 uncordoned\n');
    assert.equal((await node())['STATUS'], 'Ready');
    assert.equal(await ok(['get', 'nodes', '--field-selector', 'spec.unschedulable=true', '-o', 'name']), '');
    const bad = await kubectl(['get', 'nodes', '--field-selector', 'spec.podCIDR=x']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /field label not supported: spec\.podCIDR/);
  });

  it('taints and untaints a node', async () => {
    assert.equal(
      await ok(['taint', 'nodes', 'worker-1', 'dedicated=gpu:NoSchedule']),
      'node/worker-1 tainted\n',
    );
    const tainted = JSON.parse(await ok(['get', 'node', 'worker-1', '-o', 'json'])) as {
      spec: { taints?: { key: string; value?: string; effect: string }[] };
      status: { conditions: { type: string }[] };
    };
    // TaintNodesByCondition created the node not-ready; no node lifecycle controller removes it.
    const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
    assert.deepEqual(tainted.spec.taints, [
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      notReady,
    ]);
    assert.equal(tainted.status.conditions[0]?.type, 'Ready');
    const again = await kubectl(['taint', 'nodes', 'worker-1', 'dedicated=cpu:NoSchedule']);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /already has dedicated taint\(s\) with same effect\(s\) and --overwrite is false/,
    );
    assert.equal(
      await ok(['taint', 'nodes', 'worker-1', 'dedicated=gpu:NoSchedule-']),
      'node/worker-1 untainted\n',
    );
    const untainted = JSON.parse(await ok(['get', 'node', 'worker-1', '-o', 'json'])) as {
      spec: { taints?: unknown[] };
    };
    assert.deepEqual(untainted.spec.taints, [notReady]);
  });

  it('creates a PersistentVolume and a claim from YAML; get pv,pvc prints both tables', async () => {
    assert.equal(
      await ok(['create', '-f', '-'], volumesYaml),
      'persistentvolume/pv-data created\npersistentvolumeclaim/data created\n',
    );
    const out = await ok(['get', 'pv,pvc', '-n', 'default']);
    const [pvPart = '', pvcPart = ''] = out.split('\n\n');
    assert.match(
      pvPart,
      /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE\n/,
    );
    const [pv] = table(pvPart);
    assert.deepEqual(
      [
        pv?.['NAME'],
        pv?.['CAPACITY'],
        pv?.['ACCESS MODES'],
        pv?.['RECLAIM POLICY'],
        pv?.['STATUS'],
        pv?.['CLAIM'],
      ],
      ['persistentvolume/pv-data', '5Gi', 'RWO,ROX', 'Retain', 'Pending', ''],
    );
    assert.deepEqual([pv?.['STORAGECLASS'], pv?.['VOLUMEATTRIBUTESCLASS']], ['manual', '<unset>']);
    assert.match(
      pvcPart,
      /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE\n/,
    );
    const [pvc] = table(pvcPart);
    assert.deepEqual(
      [pvc?.['NAME'], pvc?.['STATUS'], pvc?.['VOLUME'], pvc?.['CAPACITY'], pvc?.['STORAGECLASS']],
      ['persistentvolumeclaim/data', 'Pending', '', '', 'manual'],
    );
    const fetched = JSON.parse(await ok(['get', 'pv', 'pv-data', '-o', 'json'])) as {
      spec: { volumeMode?: string; persistentVolumeReclaimPolicy?: string };
    };
    assert.deepEqual(
      [fetched.spec.volumeMode, fetched.spec.persistentVolumeReclaimPolicy],
      ['Filesystem', 'Retain'],
    );
  });

  it("refuses invalid volumes and claims with kube's messages", async () => {
    const claim = await kubectl(
      ['create', '-f', '-'],
      'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: bad, namespace: default}\nspec:\n  accessModes: [ReadWriteOnce]\n',
    );
    assert.equal(claim.code, 1);
    assert.match(
      claim.stderr,
      /The PersistentVolumeClaim "bad" is invalid: spec\.resources\[storage\]: Required value/,
    );
    const volume = await kubectl(
      ['create', '-f', '-'],
      'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: bad}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n',
    );
    assert.equal(volume.code, 1);
    assert.match(
      volume.stderr,
      /The PersistentVolume "bad" is invalid: spec: Required value: must specify a volume type/,
    );
    const grow = await kubectl([
      'patch',
      'pvc',
      'data',
      '-n',
      'default',
      '-p',
      '{"spec":{"accessModes":["ReadWriteMany"]}}',
    ]);
    assert.equal(grow.code, 1);
    assert.match(grow.stderr, /spec: Forbidden: spec is immutable after creation except resources\.requests/);
  });

  it('get cs reports the controllers, the storage as etcd-0, no scheduler, and the deprecation warning', async () => {
    const r = await kubectl(['get', 'cs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
    assert.deepEqual(table(r.stdout), [
      { NAME: 'controller-manager', STATUS: 'Healthy', MESSAGE: 'ok', ERROR: '' },
      { NAME: 'etcd-0', STATUS: 'Healthy', MESSAGE: 'ok', ERROR: '' },
      {
        NAME: 'scheduler',
        STATUS: 'Unhealthy',
        MESSAGE: '',
        ERROR: 'no scheduler runs in this server (--simulate runs one)',
      },
    ]);
    const one = await kubectl(['get', 'componentstatus', 'etcd-0', '-o', 'json']);
    assert.equal(one.code, 0, one.stderr);
    const cs = JSON.parse(one.stdout) as { kind: string; conditions: { type: string; status: string }[] };
    assert.equal(cs.kind, 'ComponentStatus');
    assert.deepEqual(cs.conditions[0], { type: 'Healthy', status: 'True', message: 'ok' });
    const del = await kubectl(['delete', 'cs', 'etcd-0']);
    assert.equal(del.code, 1);
  });
});
