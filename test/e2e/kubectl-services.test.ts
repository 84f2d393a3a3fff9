// The real kubectl against one Capstan process: services through `create service`, `expose`, `get`
// (kubectl's columns, -o wide) and delete, with --service-cluster-ip-range and
// --service-node-port-range set, the bootstrap `kubernetes` service, and kube's allocation errors.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { isAge, tableRows } from './support/kube-objects.js';

interface ServiceJson {
  readonly spec: {
    readonly clusterIP?: string;
    readonly type?: string;
    readonly selector?: Record<string, string>;
    readonly ports?: {
      name?: string;
      port: number;
      targetPort?: number | string;
      protocol?: string;
      nodePort?: number;
    }[];
  };
}

describe('kubectl against capstan: services', () => {
  let capstan: CapstanProcess;
  const { kubectl, ok } = kubectlSession(() => capstan.kubeconfigPath);
  const getService = async (name: string): Promise<ServiceJson> =>
    JSON.parse(await ok(['get', 'service', name, '-o', 'json'])) as ServiceJson;

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess({
      args: ['--service-cluster-ip-range=10.96.0.0/24', '--service-node-port-range=30000-30100'],
    });
  });

  after(async () => {
    await capstan.stop();
  });

  it('serves the kubernetes service on the first IP of the range', async () => {
    const svc = await getService('kubernetes');
    assert.equal(svc.spec.clusterIP, '10.96.0.1');
    assert.deepEqual(
      svc.spec.ports?.map((p) => [p.name, p.port, p.protocol]),
      [['https', 443, 'TCP']],
    );
    // Started with --secure-port=0: the port the server picked is the target and the endpoint's.
    const port = Number(new URL(capstan.url).port);
    assert.equal(svc.spec.ports[0]?.targetPort, port);
    const ep = JSON.parse(await ok(['get', 'endpoints', 'kubernetes', '-o', 'json'])) as {
      subsets: { ports: { port: number }[] }[];
    };
    assert.deepEqual(
      ep.subsets.map((s) => s.ports.map((p) => p.port)),
      [[port]],
    );
  });

  it('create service clusterip allocates from the range', async () => {
    assert.equal(await ok(['create', 'service', 'clusterip', 'x', '--tcp=80:8080']), 'service/x created\n');
    const svc = await getService('x');
    assert.match(svc.spec.clusterIP ?? '', /^10\.96\.0\.\d+$/);
    assert.notEqual(svc.spec.clusterIP, '10.96.0.1');
    assert.deepEqual(svc.spec.ports, [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }]);
    assert.deepEqual(svc.spec.selector, { app: 'x' });
  });

  it('create service nodeport takes the node port asked for and refuses one out of range', async () => {
    assert.equal(
      await ok(['create', 'service', 'nodeport', 'np', '--tcp=80:80', '--node-port=30050']),
      'service/np created\n',
    );
    assert.equal((await getService('np')).spec.ports?.[0]?.nodePort, 30050);
    const taken = await kubectl(['create', 'service', 'nodeport', 'np2', '--tcp=80:80', '--node-port=30050']);
    assert.equal(taken.code, 1);
    assert.equal(
      taken.stderr,
      'error: failed to create NodePort service: Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30050: provided port is already allocated\n',
    );
    const outside = await kubectl([
      'create',
      'service',
      'nodeport',
      'np3',
      '--tcp=80:80',
      '--node-port=31000',
    ]);
    assert.equal(outside.code, 1);
    assert.equal(
      outside.stderr,
      'error: failed to create NodePort service: Service "np3" is invalid: spec.ports[0].nodePort: Invalid value: 31000: provided port is not in the valid range. The range of valid ports is 30000-30100\n',
    );
  });

  it('a requested cluster IP that is taken fails with kube text', async () => {
    const r = await kubectl(['create', 'service', 'clusterip', 'y', '--tcp=80', '--clusterip=10.96.0.1']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'error: failed to create ClusterIP service: Service "y" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.1"]: failed to allocate IP 10.96.0.1: provided IP is already allocated\n',
    );
  });

  it('expose makes a service from another one', async () => {
    assert.equal(
      await ok(['expose', 'service', 'x', '--name=x-alt', '--port=81', '--target-port=8080']),
      'service/x-alt exposed\n',
    );
    const svc = await getService('x-alt');
    assert.deepEqual(svc.spec.selector, { app: 'x' });
    assert.deepEqual(
      svc.spec.ports?.map((p) => [p.port, p.targetPort]),
      [[81, 8080]],
    );
  });

  it('expose pod makes a service selecting the pod', async () => {
    assert.equal(
      await ok(['run', 'web', '--image=nginx', '--labels=app=web,tier=front']),
      'pod/web created\n',
    );
    assert.equal(
      await ok(['expose', 'pod', 'web', '--port=80', '--target-port=8080']),
      'service/web exposed\n',
    );
    const svc = await getService('web');
    assert.deepEqual(svc.spec.selector, { app: 'web', tier: 'front' });
    assert.deepEqual(
      svc.spec.ports?.map((p) => [p.port, p.targetPort, p.protocol]),
      [[80, 8080, 'TCP']],
    );
  });

  it('get svc prints kubectl columns, and -o wide the selector', async () => {
    const rows = tableRows(await ok(['get', 'svc']));
    assert.deepEqual(rows[0], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r]));
    assert.deepEqual(byName.get('kubernetes')?.slice(1, 5), ['ClusterIP', '10.96.0.1', '<none>', '443/TCP']);
    assert.deepEqual(byName.get('np')?.slice(1, 2), ['NodePort']);
    assert.equal(byName.get('np')?.[4], '80:30050/TCP');
    assert.ok(isAge(byName.get('x')?.[5]), byName.get('x')?.join(' '));
    const wide = tableRows(await ok(['get', 'svc', 'x', '-o', 'wide']));
    assert.deepEqual(wide[0], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']);
    assert.equal(wide[1]?.[6], 'app=x');
  });

  it('api-resources and explain know services', async () => {
    const rows = tableRows(await ok(['api-resources', '--api-group=']));
    assert.deepEqual(
      rows.find((r) => r[0] === 'services'),
      ['services', 'svc', 'v1', 'true', 'Service'],
    );
    const explained = await ok(['explain', 'service.spec.ports.targetPort']);
    assert.match(explained, /^KIND:\s+Service\nVERSION:\s+v1\n\nFIELD: targetPort </);
  });

  it('delete frees the IP', async () => {
    const ip = (await getService('x')).spec.clusterIP ?? '';
    assert.equal(await ok(['delete', 'svc', 'x']), 'service "x" deleted\n');
    assert.equal(
      await ok(['create', 'service', 'clusterip', 'x2', '--tcp=80', `--clusterip=${ip}`]),
      'service/x2 created\n',
    );
  });
});
