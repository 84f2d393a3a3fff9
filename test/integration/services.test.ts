// Services over HTTP on a started server: the bootstrap `default/kubernetes` service and endpoints,
// cluster IP and node port allocation with kube's errors, Table columns, status and delete.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

describe('services over HTTP', () => {
  let server: CapstanServer;
  const call = async (method: string, path: string, body?: unknown, accept?: string): Promise<Reply> => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(accept === undefined ? {} : { accept }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const services = '/api/v1/namespaces/default/services';
  const service = (name: string, spec: Record<string, unknown>): unknown => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec },
  });

  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(() => server.stop());

  it('bootstraps default/kubernetes on the first IP of the range, with endpoints to this server', async () => {
    const svc = await call('GET', `${services}/kubernetes`);
    assert.equal(svc.status, 200);
    const spec = svc.body.spec as {
      clusterIP: string;
      ports: { name: string; port: number; protocol: string }[];
    };
    assert.equal(spec.clusterIP, '10.0.0.1');
    assert.deepEqual(
      spec.ports.map((p) => [p.name, p.port, p.protocol]),
      [['https', 443, 'TCP']],
    );
    const ep = await call('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
    assert.equal(ep.status, 200);
    const subsets = ep.body.subsets as { addresses: { ip: string }[] }[];
    assert.equal(subsets[0]?.addresses[0]?.ip, '127.0.0.1');
  });

  it('allocates a cluster IP and refuses a taken one with kube text', async () => {
    const created = await call('POST', services, service('web', {}));
    assert.equal(created.status, 201);
    const ip = (created.body.spec as { clusterIP: string }).clusterIP;
    assert.match(ip, /^10\.0\.0\.\d+$/);
    assert.notEqual(ip, '10.0.0.1');
    const taken = await call('POST', services, service('dup', { clusterIP: '10.0.0.1' }));
    assert.equal(taken.status, 422);
    assert.equal(
      taken.body.message,
      'Service "dup" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.1"]: failed to allocate IP 10.0.0.1: provided IP is already allocated',
    );
  });

  it('allocates node ports and refuses a taken one', async () => {
    const np = await call(
      'POST',
      services,
      service('np', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }),
    );
    assert.equal(np.status, 201);
    const again = await call(
      'POST',
      services,
      service('np2', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }),
    );
    assert.equal(again.status, 422);
    assert.equal(
      again.body.message,
      'Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    );
  });

  it('lists as a Table with kubectl columns', async () => {
    const table = await call('GET', services, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
    assert.equal(table.status, 200);
    const columns = (table.body.columnDefinitions as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns, ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector']);
    const rows = (table.body.rows as { cells: unknown[] }[]).map((r) => r.cells.slice(0, 5));
    assert.deepEqual(rows.find((c) => c[0] === 'np')?.slice(1, 5)[3], '80:30080/TCP');
    assert.deepEqual(rows.find((c) => c[0] === 'kubernetes')?.slice(1, 4), [
      'ClusterIP',
      '10.0.0.1',
      '<none>',
    ]);
  });

  it('is discovered as svc in category all, with status, deletecollection included', async () => {
    const discovery = await call('GET', '/api/v1');
    const resources = discovery.body.resources as {
      name: string;
      shortNames?: string[];
      categories?: string[];
      verbs: string[];
    }[];
    const svc = resources.find((r) => r.name === 'services');
    assert.ok(svc !== undefined);
    assert.deepEqual(svc.shortNames, ['svc']);
    assert.deepEqual(svc.categories, ['all']);
    // Since kube 1.23 the service REST is a registry Store, deletecollection included.
    assert.deepEqual([...svc.verbs].sort(), [
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    assert.ok(resources.some((r) => r.name === 'services/status'));
  });

  it('a delete frees the IP for the next service', async () => {
    const web = await call('GET', `${services}/web`);
    const ip = (web.body.spec as { clusterIP: string }).clusterIP;
    const deleted = await call('DELETE', `${services}/web`);
    assert.equal(deleted.status, 200);
    const reuse = await call('POST', services, service('reuse', { clusterIP: ip }));
    assert.equal(reuse.status, 201);
  });
});
