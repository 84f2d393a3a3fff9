// The real kubectl against one Capstan process: every cluster IP a Service holds is a
// networking.k8s.io/v1 IPAddress object as kube 1.33 keeps them (MultiCIDRServiceAllocator):
// `kubectl get ipaddresses` lists them with their parent Service, a delete removes them, a server
// dry run takes none, and a user-created ServiceCIDR adds a range IPs may come from.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { tableRows } from './support/kube-objects.js';

interface ServiceCIDRJson {
  readonly metadata: { readonly finalizers?: string[] };
  readonly status?: { readonly conditions?: { type: string; status: string; message: string }[] };
}

interface IPAddressJson {
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly spec: { readonly parentRef: Record<string, string> };
}

describe('kubectl against capstan: IPAddress objects for cluster IPs', () => {
  let capstan: CapstanProcess;
  const { ok, fails } = kubectlSession(() => capstan.kubeconfigPath);
  const clusterIP = async (name: string): Promise<string> =>
    (JSON.parse(await ok(['get', 'service', name, '-o', 'json'])) as { spec: { clusterIP: string } }).spec
      .clusterIP;
  const ipRows = async (): Promise<string[][]> => tableRows(await ok(['get', 'ipaddresses'])).slice(1);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess({ args: ['--service-cluster-ip-range=10.96.0.0/24'] });
  });

  after(async () => {
    await capstan.stop();
  });

  it('lists an IPAddress per cluster IP, named by the IP, with its Service as parent', async () => {
    await ok(['create', 'service', 'clusterip', 'a', '--tcp=80']);
    // An IP of the range's lower band, which dynamic allocation leaves alone while the upper band has
    // room (kube's calculateRangeOffset: 16 addresses of a /24): 'a' can never have taken it.
    await ok(['create', 'service', 'clusterip', 'b', '--tcp=80', '--clusterip=10.96.0.10']);
    await ok(['create', 'service', 'clusterip', 'headless', '--clusterip=None']);
    const a = await clusterIP('a');
    assert.equal(tableRows(await ok(['get', 'ip']))[0]?.join(' '), 'NAME PARENTREF');
    assert.deepEqual(
      (await ipRows()).sort(),
      [
        ['10.96.0.1', 'services/default/kubernetes'],
        ['10.96.0.10', 'services/default/b'],
        [a, 'services/default/a'],
      ].sort(),
    );
    const obj = JSON.parse(await ok(['get', 'ipaddress', '10.96.0.10', '-o', 'json'])) as IPAddressJson;
    assert.deepEqual(obj.metadata.labels, {
      'ipaddress.kubernetes.io/ip-family': 'IPv4',
      'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io',
    });
    // ParentReference's group is `json:"group,omitempty"`: kube writes none for the core group.
    assert.deepEqual(obj.spec.parentRef, {
      resource: 'services',
      namespace: 'default',
      name: 'b',
    });
  });

  it('a server dry run takes no IP; deleting a Service deletes its IPAddress', async () => {
    const dry = JSON.parse(
      await ok(['create', 'service', 'clusterip', 'd', '--tcp=80', '--dry-run=server', '-o', 'json']),
    ) as { spec: { clusterIP: string } };
    // kube's dry-run allocator answers the range's network address and takes nothing.
    assert.equal(dry.spec.clusterIP, '10.96.0.0');
    const before = await ipRows();
    assert.ok(before.every((r) => r[1] !== 'services/default/d'));
    const a = await clusterIP('a');
    await ok(['delete', 'service', 'a']);
    assert.deepEqual(
      (await ipRows()).map((r) => r[0]),
      before.map((r) => r[0]).filter((ip) => ip !== a),
    );
    assert.equal(
      await fails(['get', 'ipaddress', a]),
      `Error from server (NotFound): ipaddresses.networking.k8s.io "${a}" not found\n`,
    );
    // The IP is free again.
    await ok(['create', 'service', 'clusterip', 'a2', '--tcp=80', `--clusterip=${a}`]);
  });

  it('a user-created ServiceCIDR is a range cluster IPs may come from', async () => {
    const outside = await fails([
      'create',
      'service',
      'clusterip',
      'far',
      '--tcp=80',
      '--clusterip=10.97.0.10',
    ]);
    assert.equal(
      outside,
      'error: failed to create ClusterIP service: Service "far" is invalid: spec.clusterIPs: Invalid value: ["10.97.0.10"]: failed to allocate IP 10.97.0.10: the provided network does not match the current range\n',
    );
    await ok(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'ServiceCIDR',
        metadata: { name: 'extra' },
        spec: { cidrs: ['10.97.0.0/24'] },
      }),
    );
    await ok(['create', 'service', 'clusterip', 'far', '--tcp=80', '--clusterip=10.97.0.10']);
    const rows = await ipRows();
    assert.ok(
      rows.some((r) => r[0] === '10.97.0.10' && r[1] === 'services/default/far'),
      JSON.stringify(rows),
    );
    // The service-cidr-controller protects it with its finalizer and reports it Ready.
    const deadline = Date.now() + 5000;
    let sc: ServiceCIDRJson;
    for (;;) {
      sc = JSON.parse(await ok(['get', 'servicecidr', 'extra', '-o', 'json'])) as ServiceCIDRJson;
      if (sc.status?.conditions?.some((c) => c.type === 'Ready') === true || Date.now() > deadline) break;
      await delay(50);
    }
    assert.deepEqual(sc.metadata.finalizers, ['networking.k8s.io/service-cidr-finalizer']);
    assert.deepEqual(
      sc.status?.conditions?.map((c) => [c.type, c.status, c.message]),
      [['Ready', 'True', 'Kubernetes Service CIDR is ready']],
    );
  });
});
