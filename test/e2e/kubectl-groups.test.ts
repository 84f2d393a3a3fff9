// The real kubectl against one Capstan process for the simpler named groups: coordination.k8s.io
// leases, scheduling.k8s.io priorityclasses (with the bootstrapped system classes), policy
// poddisruptionbudgets, networking.k8s.io ingresses, ingressclasses, networkpolicies, servicecidrs
// and ipaddresses, through
// kubectl's own create subcommands (protobuf bodies), get tables and discovery.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { isAge, namespace, tableRows } from './support/kube-objects.js';

const ns = 'e2e-groups';

/** The header line with its runs of spaces collapsed. */
const header = (table: string): string => (table.split('\n')[0] ?? '').trim().replace(/\s+/g, ' ');

describe('kubectl against capstan: named groups', () => {
  let capstan: CapstanProcess;
  const { ok, fails } = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
    await ok(['create', '-f', '-'], JSON.stringify(namespace(ns)));
  });

  after(async () => {
    await capstan.stop();
  });

  it('lists the groups and their short names in api-resources', async () => {
    const rows = tableRows(await ok(['api-resources', '--no-headers']));
    const byName = new Map(rows.map((r) => [r[0], r.slice(1)]));
    const expected: Record<string, string[]> = {
      leases: ['coordination.k8s.io/v1', 'true', 'Lease'],
      priorityclasses: ['pc', 'scheduling.k8s.io/v1', 'false', 'PriorityClass'],
      poddisruptionbudgets: ['pdb', 'policy/v1', 'true', 'PodDisruptionBudget'],
      ingresses: ['ing', 'networking.k8s.io/v1', 'true', 'Ingress'],
      ingressclasses: ['networking.k8s.io/v1', 'false', 'IngressClass'],
      networkpolicies: ['netpol', 'networking.k8s.io/v1', 'true', 'NetworkPolicy'],
      servicecidrs: ['networking.k8s.io/v1', 'false', 'ServiceCIDR'],
      ipaddresses: ['ip', 'networking.k8s.io/v1', 'false', 'IPAddress'],
      csistoragecapacities: ['storage.k8s.io/v1', 'true', 'CSIStorageCapacity'],
      bindings: ['v1', 'true', 'Binding'],
      runtimeclasses: ['node.k8s.io/v1', 'false', 'RuntimeClass'],
      storageclasses: ['sc', 'storage.k8s.io/v1', 'false', 'StorageClass'],
      csidrivers: ['storage.k8s.io/v1', 'false', 'CSIDriver'],
      csinodes: ['storage.k8s.io/v1', 'false', 'CSINode'],
      volumeattachments: ['storage.k8s.io/v1', 'false', 'VolumeAttachment'],
      endpointslices: ['discovery.k8s.io/v1', 'true', 'EndpointSlice'],
    };
    for (const [resource, columns] of Object.entries(expected)) {
      assert.deepEqual(byName.get(resource), columns, resource);
    }
  });

  it('gets the default ServiceCIDR and IPAddresses as kube 1.33 prints them', async () => {
    // The hook that keeps it has run before the server is ready.
    const cidrs = tableRows(await ok(['get', 'servicecidrs']));
    assert.deepEqual(cidrs[0], ['NAME', 'CIDRS', 'AGE']);
    assert.equal(cidrs.length, 2);
    const [name = '', ranges = ''] = cidrs[1] ?? [];
    assert.equal(name, 'kubernetes');
    assert.match(ranges, /^[0-9a-f.:]+\/\d+(,[0-9a-f.:]+\/\d+)?$/);
    await ok(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IPAddress',
        metadata: { name: '10.0.0.77' },
        spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'web' } },
      }),
    );
    const ips = await ok(['get', 'ip']);
    assert.equal(header(ips), 'NAME PARENTREF');
    // Beside the one created here, the `kubernetes` Service's cluster IP (kube 1.33 keeps one per IP).
    assert.deepEqual(tableRows(ips).slice(1), [
      ['10.0.0.1', 'services/default/kubernetes'],
      ['10.0.0.77', 'services/default/web'],
    ]);
  });

  it('creates priority classes beside the two bootstrapped system ones', async () => {
    assert.equal(
      await ok(['create', 'priorityclass', 'high', '--value=1000', '--description=important']),
      'priorityclass.scheduling.k8s.io/high created\n',
    );
    const table = await ok(['get', 'pc']);
    assert.equal(header(table), 'NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY');
    const rows = tableRows(table).slice(1);
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[2], r[4]]),
      [
        ['high', '1000', 'false', 'PreemptLowerPriority'],
        ['system-cluster-critical', '2000000000', 'false', 'PreemptLowerPriority'],
        ['system-node-critical', '2000001000', 'false', 'PreemptLowerPriority'],
      ],
    );
    assert.ok(
      rows.every((r) => isAge(r[3])),
      table,
    );
    assert.equal(
      await fails(['delete', 'pc', 'system-node-critical']),
      'Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted\n',
    );
    assert.match(
      await fails(['create', 'priorityclass', 'system-mine', '--value=1']),
      /metadata\.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only/,
    );
  });

  it('creates a pod disruption budget and prints its bounds', async () => {
    assert.equal(
      await ok(['create', 'pdb', 'p', '-n', ns, '--selector=app=x', '--min-available=1']),
      'poddisruptionbudget.policy/p created\n',
    );
    const table = await ok(['get', 'pdb', '-n', ns]);
    assert.equal(header(table), 'NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE');
    const [row] = tableRows(table).slice(1);
    assert.deepEqual(row?.slice(0, 4), ['p', '1', 'N/A', '0']);
    const pdb = JSON.parse(await ok(['get', 'pdb', 'p', '-n', ns, '-o', 'json'])) as {
      metadata: { generation?: number };
      spec: unknown;
      status: unknown;
    };
    assert.deepEqual(pdb.spec, { minAvailable: 1, selector: { matchLabels: { app: 'x' } } });
    assert.equal(pdb.metadata.generation, 1);
    assert.deepEqual(pdb.status, {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    });
  });

  it('creates an ingress from a rule and prints its hosts', async () => {
    assert.equal(
      await ok(['create', 'ingress', 'i', '-n', ns, '--rule=foo.com/bar=svc1:8080']),
      'ingress.networking.k8s.io/i created\n',
    );
    const ing = JSON.parse(await ok(['get', 'ing', 'i', '-n', ns, '-o', 'json'])) as { spec: unknown };
    assert.deepEqual(ing.spec, {
      rules: [
        {
          host: 'foo.com',
          http: {
            paths: [
              {
                path: '/bar',
                pathType: 'Exact',
                backend: { service: { name: 'svc1', port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
    });
    const table = await ok(['get', 'ingress', '-n', ns]);
    assert.equal(header(table), 'NAME CLASS HOSTS ADDRESS PORTS AGE');
    const [row] = tableRows(table).slice(1);
    // ADDRESS is empty until a controller reports one.
    assert.deepEqual(row?.slice(0, 4), ['i', '<none>', 'foo.com', '80']);
    assert.match(
      await fails(['create', 'ingress', 'bad', '-n', ns, '--rule=foo.com/bar=svc1:99999']),
      /spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.port\.number: Invalid value: 99999: must be between 1 and 65535, inclusive/,
    );
  });

  it('defaults network policy types and prints the pod selector', async () => {
    const np = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np', namespace: ns },
      spec: { podSelector: { matchLabels: { app: 'web' } }, egress: [{ ports: [{ port: 53 }] }] },
    };
    await ok(['create', '-f', '-'], JSON.stringify(np));
    const got = JSON.parse(await ok(['get', 'netpol', 'np', '-n', ns, '-o', 'json'])) as {
      spec: { policyTypes: string[]; egress: { ports: unknown[] }[] };
    };
    assert.deepEqual(got.spec.policyTypes, ['Ingress', 'Egress']);
    assert.deepEqual(got.spec.egress[0]?.ports, [{ protocol: 'TCP', port: 53 }]);
    const table = await ok(['get', 'networkpolicies', '-n', ns]);
    assert.equal(header(table), 'NAME POD-SELECTOR AGE');
    assert.deepEqual(tableRows(table)[1]?.slice(0, 2), ['np', 'app=web']);
  });

  it('lists leases across namespaces', async () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'leader', namespace: ns },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 10 },
    };
    await ok(['create', '-f', '-'], JSON.stringify(lease));
    const table = await ok(['get', 'lease', '-A']);
    assert.equal(header(table), 'NAMESPACE NAME HOLDER AGE');
    const row = tableRows(table).find((r) => r[1] === 'leader');
    assert.deepEqual(row?.slice(0, 3), [ns, 'leader', 'me']);
  });

  it('marks the default storage class and refuses to change its provisioner', async () => {
    const sc = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
    };
    assert.equal(
      await ok(['create', '-f', '-'], JSON.stringify(sc)),
      'storageclass.storage.k8s.io/standard created\n',
    );
    const table = await ok(['get', 'sc']);
    assert.equal(header(table), 'NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE');
    assert.deepEqual(tableRows(table)[1]?.slice(0, 6), [
      'standard',
      '(default)',
      'rancher.io/local-path',
      'Delete',
      'Immediate',
      'false',
    ]);
    assert.match(
      await fails(['patch', 'sc', 'standard', '--type=merge', '-p', '{"provisioner":"other.io/x"}']),
      /provisioner: Forbidden: updates to provisioner are forbidden\./,
    );
  });

  it('lists endpoint slices of a service by its label', async () => {
    const slice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'web-x1', namespace: ns, labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.0.5'] }],
      ports: [{ name: 'http', port: 8080 }],
    };
    await ok(['create', '-f', '-'], JSON.stringify(slice));
    const table = await ok(['get', 'endpointslices', '-n', ns, '-l', 'kubernetes.io/service-name=web']);
    assert.equal(header(table), 'NAME ADDRESSTYPE PORTS ENDPOINTS AGE');
    assert.deepEqual(tableRows(table)[1]?.slice(0, 4), ['web-x1', 'IPv4', '8080', '10.1.0.5']);
  });
});
