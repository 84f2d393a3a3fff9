import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RangeAllocation } from '../../../api/core/v1/range-allocation.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { IPAddress } from '../../../api/networking/v1/ip-address.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newEndpointsREST } from '../endpoint/storage.js';
import { decodeBits, setBits } from './range-store.js';
import { serviceEnv, svc, type ServiceEnv } from './testing/service-env.js';

const ctx = testContext('default');

const put = (obj: Service): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(obj) },
  options: {},
});

async function stored(env: ServiceEnv, key: string): Promise<unknown> {
  const kv = (await env.backend.get(key)).kv;
  return kv === null ? null : JSON.parse(Buffer.from(kv.value).toString('utf8'));
}

// Fixed cluster IPs in these tests come from the static band (10.0.0.1–10.0.0.16): dynamic
// allocations prefer the addresses above it, so a random one never takes an IP a test asks for.
describe('services', () => {
  let env: ServiceEnv;
  before(async () => {
    env = await serviceEnv({
      endpoints: async (getter) => newEndpointsREST({ restOptionsGetter: getter }),
    });
  });
  after(() => env.close());
  const create = (s: Service): Promise<Service> => env.services.create(ctx, s, { options: {} });

  it('stores under services/specs with v1 defaults and an allocated cluster IP', async () => {
    const out = await create(svc('web', { ports: [{ port: 80 }] }));
    const spec = out.spec ?? {};
    assert.equal(spec.type, 'ClusterIP');
    assert.equal(spec.sessionAffinity, 'None');
    assert.deepEqual(spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    assert.equal(spec.ipFamilyPolicy, 'SingleStack');
    assert.deepEqual(spec.ipFamilies, ['IPv4']);
    assert.equal(spec.internalTrafficPolicy, 'Cluster');
    assert.match(spec.clusterIP ?? '', /^10\.0\.0\.([1-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-4])$/);
    assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
    assert.deepEqual(out.status, {});
    assert.notEqual(await stored(env, '/registry/services/specs/default/web'), null);
    // The IP is an IPAddress object naming the service, as kube 1.33's allocator writes it.
    const ip = (await stored(env, `/registry/ipaddresses/${spec.clusterIP ?? ''}`)) as IPAddress;
    assert.deepEqual(ip.metadata?.labels, {
      'ipaddress.kubernetes.io/ip-family': 'IPv4',
      'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io',
    });
    assert.deepEqual(ip.spec?.parentRef, {
      group: '',
      resource: 'services',
      namespace: 'default',
      name: 'web',
    });
    // And, as kube 1.33 still dual-writes it, marked in the bitmap older versions allocate from.
    const range = (await stored(env, '/registry/ranges/serviceips')) as RangeAllocation;
    assert.equal(range.range, '10.0.0.0/24');
    const offset = Number((spec.clusterIP ?? '').split('.')[3]) - 1;
    assert.deepEqual(setBits(decodeBits(range.data)), [offset]);
    assert.deepEqual(env.services.shortNames(), ['svc']);
    assert.deepEqual(env.services.categories(), ['all']);
  });

  it('takes a requested IP once, with kube errors for a taken or foreign one', async () => {
    const a = await create(svc('fixed', { clusterIP: '10.0.0.5' }));
    assert.deepEqual(a.spec?.clusterIPs, ['10.0.0.5']);
    await rejectsWithStatus(create(svc('fixed2', { clusterIP: '10.0.0.5' })), {
      code: 422,
      reason: 'Invalid',
      message:
        'Service "fixed2" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: provided IP is already allocated',
    });
    await rejectsWithStatus(create(svc('far', { clusterIP: '10.1.0.5' })), {
      code: 422,
      reason: 'Invalid',
      message:
        'Service "far" is invalid: spec.clusterIPs: Invalid value: ["10.1.0.5"]: failed to allocate IP 10.1.0.5: the provided network does not match the current range',
    });
    await rejectsWithStatus(create(svc('net', { clusterIP: '10.0.0.0' })), {
      code: 422,
      reason: 'Invalid',
      message:
        'Service "net" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.0"]: failed to allocate IP 10.0.0.0: the provided IP (10.0.0.0) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    });
    await rejectsWithStatus(create(svc('bad', { clusterIP: 'x.y' })), {
      code: 422,
      reason: 'Invalid',
      message:
        'Service "bad" is invalid: spec.clusterIPs[0]: Invalid value: "x.y": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    });
  });

  it('gives back what a failed create took', async () => {
    await rejectsWithStatus(create(svc('badport', { clusterIP: '10.0.0.9', ports: [{ port: 0 }] })), {
      code: 422,
      reason: 'Invalid',
      // targetPort defaults to port, so it is out of range too, as in kube.
      message:
        'Service "badport" is invalid: [spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive]',
    });
    await create(svc('dup', { clusterIP: '10.0.0.10' }));
    await rejectsWithStatus(create(svc('dup', { clusterIP: '10.0.0.11' })), {
      code: 409,
      reason: 'AlreadyExists',
    });
    const ok = await create(svc('gets-9', { clusterIP: '10.0.0.9' }));
    assert.equal(ok.spec?.clusterIP, '10.0.0.9');
    const again = await create(svc('gets-11', { clusterIP: '10.0.0.11' }));
    assert.equal(again.spec?.clusterIP, '10.0.0.11');
  });

  it('names the generated name in the IPAddress; an invalid name takes no IP', async () => {
    const gen = await create({ ...svc(''), metadata: { generateName: 'gen-' } });
    const name = gen.metadata?.name ?? '';
    assert.match(name, /^gen-[a-z0-9]{5}$/);
    const ip = (await stored(env, `/registry/ipaddresses/${gen.spec?.clusterIP ?? ''}`)) as IPAddress;
    assert.equal(ip.spec?.parentRef?.name, name);
    const before = await env.services.allocators.ipAllocators[0]?.allocated();
    await rejectsWithStatus(create(svc('Bad.Name', { clusterIP: '10.0.0.14' })), {
      code: 422,
      reason: 'Invalid',
      message:
        "Service \"Bad.Name\" is invalid: metadata.name: Invalid value: \"Bad.Name\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    });
    assert.deepEqual(await env.services.allocators.ipAllocators[0]?.allocated(), before);
  });

  it('allocates nothing for headless and ExternalName services', async () => {
    const before = await env.services.allocators.ipAllocators[0]?.allocated();
    const headless = await create(svc('headless', { clusterIP: 'None' }));
    assert.deepEqual(headless.spec?.clusterIPs, ['None']);
    const ext = await create(svc('ext', { type: 'ExternalName', externalName: 'example.com', ports: [] }));
    assert.equal(ext.spec?.clusterIP, undefined);
    assert.deepEqual(await env.services.allocators.ipAllocators[0]?.allocated(), before);
  });

  it('allocates node ports and refuses a taken or foreign one as kube does', async () => {
    const np = await create(
      svc('np', {
        type: 'NodePort',
        ports: [
          { port: 80, name: 'a', nodePort: 30080 },
          { port: 81, name: 'b' },
        ],
      }),
    );
    const ports = np.spec?.ports ?? [];
    assert.equal(ports[0]?.nodePort, 30080);
    const other = ports[1]?.nodePort ?? 0;
    assert.ok(other >= 30000 && other <= 32767 && other !== 30080);
    assert.equal(np.spec?.externalTrafficPolicy, 'Cluster');
    await rejectsWithStatus(
      create(svc('np2', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
      },
    );
    await rejectsWithStatus(
      create(svc('np3', { type: 'NodePort', ports: [{ port: 80, nodePort: 29999 }] })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Service "np3" is invalid: spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
      },
    );
  });

  it('type changes take and give back node ports and cluster IPs', async () => {
    const created = await create(svc('flip', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }));
    const ip = created.spec?.clusterIP ?? '';
    const toClusterIP: Service = { ...created, spec: { ...created.spec, type: 'ClusterIP' } };
    delete toClusterIP.spec?.externalTrafficPolicy;
    const res = await env.services.update(ctx, 'flip', put(toClusterIP));
    assert.equal(res.object.spec?.ports?.[0]?.nodePort, undefined);
    assert.equal(res.object.spec?.clusterIP, ip);
    await create(svc('takes-31000', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }));
    const toExternal: Service = {
      ...res.object,
      spec: { ...res.object.spec, type: 'ExternalName', externalName: 'db.example.com' },
    };
    const ext = await env.services.update(ctx, 'flip', put(toExternal));
    assert.equal(ext.object.spec?.clusterIP, undefined);
    const reuse = await create(svc('takes-ip', { clusterIP: ip }));
    assert.equal(reuse.spec?.clusterIP, ip);
  });

  it('an update keeps omitted allocations and refuses a changed cluster IP', async () => {
    const created = await create(svc('keep', { clusterIP: '10.0.0.12' }));
    const omitted: Service = { ...created, spec: { ports: [{ port: 8080 }], selector: { app: 'keep' } } };
    const res = await env.services.update(ctx, 'keep', put(omitted));
    assert.equal(res.object.spec?.clusterIP, '10.0.0.12');
    assert.deepEqual(res.object.spec.clusterIPs, ['10.0.0.12']);
    const changed: Service = {
      ...res.object,
      spec: { ...res.object.spec, clusterIP: '10.0.0.13', clusterIPs: ['10.0.0.13'] },
    };
    await rejectsWithStatus(env.services.update(ctx, 'keep', put(changed)), {
      code: 422,
      reason: 'Invalid',
      message:
        'Service "keep" is invalid: spec.clusterIPs[0]: Invalid value: ["10.0.0.13"]: may not change once set',
    });
    const taken = await create(svc('takes-13', { clusterIP: '10.0.0.13' }));
    assert.equal(taken.spec?.clusterIP, '10.0.0.13');
  });

  it('validates ports, names, types and selectors with kube messages', async () => {
    const invalid = async (s: Service, message: string): Promise<void> => {
      await rejectsWithStatus(create(s), { code: 422, reason: 'Invalid', message });
    };
    await invalid(
      svc('two', { ports: [{ port: 80 }, { port: 81 }] }),
      'Service "two" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]',
    );
    await invalid(
      svc('same', {
        ports: [
          { port: 80, name: 'a' },
          { port: 80, name: 'b' },
        ],
      }),
      'Service "same" is invalid: spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    );
    await invalid(
      svc('kind', { type: 'Weird' }),
      'Service "kind" is invalid: spec.type: Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
    await invalid(
      svc('1abc'),
      "Service \"1abc\" is invalid: metadata.name: Invalid value: \"1abc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
    await invalid(
      svc('sel', { selector: { 'a b': 'x' } }),
      "Service \"sel\" is invalid: spec.selector: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    await invalid(
      svc('cip', { ports: [{ port: 80, nodePort: 30500 }] }),
      'Service "cip" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'',
    );
  });

  it('keeps status on update and spec on services/status', async () => {
    const created = await create(svc('lb', { type: 'LoadBalancer' }));
    const withStatus: Service = { ...created, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } };
    const viaMain = await env.services.update(ctx, 'lb', put(withStatus));
    assert.deepEqual(viaMain.object.status, {});
    const statusUpdate: Service = {
      ...viaMain.object,
      spec: { ...viaMain.object.spec, selector: { app: 'changed' } },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }] } },
    };
    const viaStatus = await env.status.update(ctx, 'lb', put(statusUpdate));
    assert.deepEqual(viaStatus.object.spec?.selector, { app: 'lb' });
    assert.deepEqual(viaStatus.object.status?.loadBalancer?.ingress, [{ ip: '192.0.2.1', ipMode: 'VIP' }]);
  });

  it('prints NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE SELECTOR', async () => {
    const lb = await env.services.get(ctx, 'lb', {});
    const np = await env.services.get(ctx, 'np', {});
    const table = env.services.convertToTable(
      ctx,
      { apiVersion: 'v1', kind: 'ServiceList', metadata: {}, items: [lb, np] },
      {},
    );
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Type', 0],
        ['Cluster-IP', 0],
        ['External-IP', 0],
        ['Port(s)', 0],
        ['Age', 0],
        ['Selector', 1],
      ],
    );
    const cells = table.rows.map((r) => [...r.cells.slice(0, 5), r.cells[6]]);
    const lbPort = lb.spec?.ports?.[0]?.nodePort ?? 0;
    const npPorts = np.spec?.ports ?? [];
    assert.deepEqual(cells, [
      ['lb', 'LoadBalancer', lb.spec?.clusterIP, '192.0.2.1', `80:${lbPort}/TCP`, 'app=lb'],
      [
        'np',
        'NodePort',
        np.spec?.clusterIP,
        '<none>',
        `80:30080/TCP,81:${npPorts[1]?.nodePort ?? 0}/TCP`,
        'app=np',
      ],
    ]);
  });

  it('a delete gives back the IP and node ports and removes the Endpoints', async () => {
    const endpoints = await newEndpointsREST({ restOptionsGetter: env.getter });
    const created = await create(
      svc('gone', { type: 'NodePort', clusterIP: '10.0.0.14', ports: [{ port: 80, nodePort: 31030 }] }),
    );
    await endpoints.create(
      ctx,
      { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'gone' }, subsets: [] },
      { options: {} },
    );
    const res = await env.services.delete(ctx, 'gone', { options: {} });
    assert.equal(res.deleted, true);
    assert.equal((res.object as Service).spec?.clusterIP, created.spec?.clusterIP);
    await rejectsWithStatus(endpoints.get(ctx, 'gone', {}), { code: 404, reason: 'NotFound' });
    const again = await create(
      svc('again', { type: 'NodePort', clusterIP: '10.0.0.14', ports: [{ port: 80, nodePort: 31030 }] }),
    );
    assert.equal(again.spec?.clusterIP, '10.0.0.14');
  });

  it('a deletecollection gives back what each service held and removes their Endpoints', async () => {
    const endpoints = await newEndpointsREST({ restOptionsGetter: env.getter });
    const labelled = (name: string, spec: Service['spec']): Service => ({
      ...svc(name, spec),
      metadata: { name, labels: { batch: 'gone' } },
    });
    await create(
      labelled('all-a', { type: 'NodePort', clusterIP: '10.0.0.7', ports: [{ port: 80, nodePort: 31040 }] }),
    );
    await create(labelled('all-b', { clusterIP: '10.0.0.8' }));
    await endpoints.create(
      ctx,
      { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'all-a' }, subsets: [] },
      { options: {} },
    );
    const gone = await env.services.deleteCollection(ctx, {
      options: {},
      listOptions: { labelSelector: 'batch=gone' },
    });
    assert.deepEqual(gone.items.map((s) => s.metadata?.name).sort(), ['all-a', 'all-b']);
    await rejectsWithStatus(endpoints.get(ctx, 'all-a', {}), { code: 404, reason: 'NotFound' });
    const again = await create(
      svc('all-again', { type: 'NodePort', clusterIP: '10.0.0.7', ports: [{ port: 80, nodePort: 31040 }] }),
    );
    assert.equal(again.spec?.ports?.[0]?.nodePort, 31040);
    assert.equal((await create(svc('all-again-b', { clusterIP: '10.0.0.8' }))).spec?.clusterIP, '10.0.0.8');
  });

  it('a service held by a finalizer keeps its IP until the finalizer goes', async () => {
    const held = svc('held', { clusterIP: '10.0.0.15' });
    held.metadata = { name: 'held', finalizers: ['example.com/keep'] };
    await create(held);
    const res = await env.services.delete(ctx, 'held', { options: {} });
    assert.equal(res.deleted, false);
    await rejectsWithStatus(create(svc('wants-15', { clusterIP: '10.0.0.15' })), {
      code: 422,
      reason: 'Invalid',
    });
    const current = await env.services.get(ctx, 'held', {});
    await env.services.update(
      ctx,
      'held',
      put({ ...current, metadata: { ...current.metadata, finalizers: [] } }),
    );
    await rejectsWithStatus(env.services.get(ctx, 'held', {}), { code: 404, reason: 'NotFound' });
    assert.equal((await create(svc('wants-15', { clusterIP: '10.0.0.15' }))).spec?.clusterIP, '10.0.0.15');
  });

  it('a dry run allocates nothing', async () => {
    const before = await env.services.allocators.ipAllocators[0]?.allocated();
    const out = await env.services.create(ctx, svc('dry', { clusterIP: '10.0.0.16' }), {
      options: { dryRun: ['All'] },
    });
    assert.equal(out.spec?.clusterIP, '10.0.0.16');
    // kube's dry-run allocator answers the range's network address for a dynamic IP.
    const dynamic = await env.services.create(ctx, svc('dry2'), { options: { dryRun: ['All'] } });
    assert.equal(dynamic.spec?.clusterIP, '10.0.0.0');
    assert.deepEqual(await env.services.allocators.ipAllocators[0]?.allocated(), before);
    const real = await create(svc('wet', { clusterIP: '10.0.0.16' }));
    assert.equal(real.spec?.clusterIP, '10.0.0.16');
  });
});
