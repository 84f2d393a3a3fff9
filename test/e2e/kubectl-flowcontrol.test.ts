// The real kubectl against one Capstan process for flowcontrol.apiserver.k8s.io: api-resources
// lists both kinds, `kubectl get flowschemas` and `kubectl get prioritylevelconfigurations` show
// kube's bootstrap objects in kube's columns, and a request's -v=8 trace shows the headers kube
// sets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { isAge, tableRows } from './support/kube-objects.js';

const header = (table: string): string => (table.split('\n')[0] ?? '').trim().replace(/\s+/g, ' ');

describe('kubectl against capstan: flowcontrol', () => {
  let capstan: CapstanProcess;
  const { ok, kubectl } = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });

  after(async () => {
    await capstan.stop();
  });

  it('lists both kinds in api-resources', async () => {
    const rows = tableRows(
      await ok(['api-resources', '--api-group=flowcontrol.apiserver.k8s.io', '--no-headers']),
    );
    assert.deepEqual(rows, [
      ['flowschemas', 'flowcontrol.apiserver.k8s.io/v1', 'false', 'FlowSchema'],
      [
        'prioritylevelconfigurations',
        'flowcontrol.apiserver.k8s.io/v1',
        'false',
        'PriorityLevelConfiguration',
      ],
    ]);
  });

  it("shows kube's FlowSchemas with kube's columns", async () => {
    const table = await ok(['get', 'flowschemas']);
    assert.equal(header(table), 'NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL');
    const rows = tableRows(table).slice(1);
    assert.ok(
      rows.every((r) => isAge(r[4]) && r[5] === 'False'),
      table,
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[2], r[3]]),
      [
        ['exempt', 'exempt', '1', '<none>'],
        ['probes', 'exempt', '2', '<none>'],
        ['system-leader-election', 'leader-election', '100', 'ByUser'],
        ['endpoint-controller', 'workload-high', '150', 'ByUser'],
        ['workload-leader-election', 'leader-election', '200', 'ByUser'],
        ['system-node-high', 'node-high', '400', 'ByUser'],
        ['system-nodes', 'system', '500', 'ByUser'],
        ['kube-controller-manager', 'workload-high', '800', 'ByNamespace'],
        ['kube-scheduler', 'workload-high', '800', 'ByNamespace'],
        ['kube-system-service-accounts', 'workload-high', '900', 'ByNamespace'],
        ['service-accounts', 'workload-low', '9000', 'ByUser'],
        ['global-default', 'global-default', '9900', 'ByUser'],
        ['catch-all', 'catch-all', '10000', 'ByUser'],
      ],
    );
  });

  it("shows kube's PriorityLevelConfigurations with kube's columns", async () => {
    const table = await ok(['get', 'prioritylevelconfigurations']);
    assert.equal(header(table), 'NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE');
    const rows = tableRows(table).slice(1);
    assert.ok(
      rows.every((r) => isAge(r[6])),
      table,
    );
    assert.deepEqual(
      rows.map((r) => r.slice(0, 6)),
      [
        ['catch-all', 'Limited', '5', '<none>', '<none>', '<none>'],
        ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'],
        ['global-default', 'Limited', '20', '128', '6', '50'],
        ['leader-election', 'Limited', '10', '16', '4', '50'],
        ['node-high', 'Limited', '40', '64', '6', '50'],
        ['system', 'Limited', '30', '64', '6', '50'],
        ['workload-high', 'Limited', '40', '128', '6', '50'],
        ['workload-low', 'Limited', '100', '128', '6', '50'],
      ],
    );
  });

  it('answers with the X-Kubernetes-PF-* headers of the exempt schema for the admin', async () => {
    const uids = await ok([
      'get',
      'flowschema/exempt',
      'prioritylevelconfiguration/exempt',
      '-o',
      'jsonpath={.items[*].metadata.uid}',
    ]);
    const [fsUID, plUID] = uids.split(' ');
    const run = await kubectl(['get', 'namespaces', '-v=8']);
    assert.equal(run.code, 0, run.stderr);
    const trace = run.stderr;
    assert.match(trace, new RegExp(`X-Kubernetes-Pf-Flowschema-Uid: ${fsUID ?? '-'}`), trace);
    assert.match(trace, new RegExp(`X-Kubernetes-Pf-Prioritylevel-Uid: ${plUID ?? '-'}`), trace);
  });
});
