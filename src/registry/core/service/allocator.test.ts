// Cluster IP and node port allocation over a real store: a range filled and freed, a restart, the
// repair at start (IPAddress objects both ways, the bitmaps), ServiceCIDR ranges, the dual-written
// bitmap, two servers on one store, and dual stack.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RangeAllocation } from '../../../api/core/v1/range-allocation.js';
import type { Service } from '../../../api/core/v1/service.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { testContext } from '../../generic/testing/widgets.js';
import { parseIP } from './ip-net.js';
import { serviceEnv, svc, type ServiceEnv } from './testing/service-env.js';
import type { IPAddress } from '../../../api/networking/v1/ip-address.js';
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import { newServiceCIDRREST } from '../../networking/servicecidr/storage.js';
import { VirtualClock } from '../../../machinery/time/clock.js';
import { newServiceIPAddress } from './ipaddress-allocator.js';
import type { RepairEvent } from './repair-ip.js';

const ctx = testContext('default');

async function stored(env: ServiceEnv, key: string): Promise<unknown> {
  const kv = (await env.backend.get(key)).kv;
  return kv === null ? null : JSON.parse(Buffer.from(kv.value).toString('utf8'));
}

async function removeKey(env: ServiceEnv, key: string): Promise<void> {
  const got = await env.backend.get(key);
  if (got.kv !== null) await env.backend.delete(key, { modRevision: got.kv.modRevision });
}

/** An IPAddress written straight to the store, as an older or foreign writer could leave it. */
async function putIPAddress(
  env: ServiceEnv,
  ip: string,
  parent: { namespace: string; name: string },
  opts: { replace?: boolean } = {},
): Promise<void> {
  const key = `/registry/ipaddresses/${ip}`;
  if (opts.replace === true) await removeKey(env, key);
  const obj = {
    ...newServiceIPAddress(ip, 'IPv4', parent),
    metadata: {
      ...newServiceIPAddress(ip, 'IPv4', parent).metadata,
      uid: `uid-${ip}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
  };
  await env.backend.create(key, Buffer.from(JSON.stringify(obj)));
}

describe('service IP allocation', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-svc-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('254 services fill a /24; the next fails as kube words it; a delete frees one; a restart keeps all', async () => {
    const path = join(dir, 'fill.db');
    const env = await serviceEnv({ path });
    const create = (s: Service): Promise<Service> => env.services.create(ctx, s, { options: {} });
    const ips = new Set<string>();
    try {
      for (let i = 0; i < 254; i++) ips.add((await create(svc(`s${i}`))).spec?.clusterIP ?? '');
      assert.equal(ips.size, 254);
      for (const ip of ips)
        assert.ok(/^10\.0\.0\.\d+$/.test(ip) && ip !== '10.0.0.0' && ip !== '10.0.0.255', ip);
      await rejectsWithStatus(create(svc('one-too-many')), {
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: failed to allocate a serviceIP: range is full',
      });
      const freed = (await env.services.get(ctx, 's17', {})).spec?.clusterIP ?? '';
      await env.services.delete(ctx, 's17', { options: {} });
      assert.equal((await create(svc('fits-now'))).spec?.clusterIP, freed);
    } finally {
      await env.close();
    }
    const restarted = await serviceEnv({ path });
    try {
      await rejectsWithStatus(restarted.services.create(ctx, svc('after-restart'), { options: {} }), {
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: failed to allocate a serviceIP: range is full',
      });
      await rejectsWithStatus(
        restarted.services.create(ctx, svc('taken', { clusterIP: '10.0.0.1' }), { options: {} }),
        {
          code: 422,
          reason: 'Invalid',
        },
      );
      assert.equal((await restarted.services.allocators.ipAllocators[0]?.allocated())?.length, 254);
    } finally {
      await restarted.close();
    }
  });

  it('the startup repair gives services their IPAddresses and removes leaked ones, with kube events', async () => {
    const path = join(dir, 'repair.db');
    const clock = new VirtualClock(Date.parse('2026-01-01T00:00:00Z'));
    const env = await serviceEnv({ path, clock });
    try {
      await env.services.create(
        ctx,
        svc('kept', { clusterIP: '10.0.0.7', type: 'NodePort', ports: [{ port: 80, nodePort: 30007 }] }),
        {
          options: {},
        },
      );
      await env.services.create(ctx, svc('young', { clusterIP: '10.0.0.8' }), { options: {} });
      // A data directory of an older Capstan: the service is stored, its IPAddress is not.
      await removeKey(env, '/registry/ipaddresses/10.0.0.7');
      // A leak: an IPAddress whose service is gone, and a node port no service holds.
      await putIPAddress(env, '10.0.0.99', { namespace: 'default', name: 'gone' });
      // A service whose IPAddress names another service that does not hold the IP.
      await putIPAddress(env, '10.0.0.8', { namespace: 'default', name: 'kept' }, { replace: true });
      await env.services.allocators.nodePorts.store.update(() => ({ bits: 1n << 99n, result: undefined }));
      // The dual-written bitmap: the two services' bits lost, a leaked one set.
      await env.services.allocators.ipBitmaps[0]?.store.update(() => ({
        bits: 1n << 98n,
        result: undefined,
      }));
    } finally {
      await env.close();
    }
    const events: RepairEvent[] = [];
    // Within the grace period an orphan IPAddress may belong to a service still being written.
    const early = await serviceEnv({ path, clock, recordEvent: (e) => events.push(e) });
    try {
      assert.deepEqual((await early.services.allocators.ipAllocators[0]?.allocated())?.sort(), [
        '10.0.0.7',
        '10.0.0.8',
        '10.0.0.99',
      ]);
    } finally {
      await early.close();
    }
    assert.deepEqual(
      events.map((e) => [e.regarding.kind, e.regarding.name, e.reason, e.action, e.note]),
      [
        [
          'Service',
          'kept',
          'ClusterIPNotAllocated',
          'ClusterIPAllocation',
          'Cluster IP [IPv4]: 10.0.0.7 is not allocated; repairing',
        ],
        [
          'IPAddress',
          '10.0.0.8',
          'IPAddressWrongReference',
          'IPAddressAllocation',
          'IPAddress: 10.0.0.8 for Service default/kept has a wrong reference; cleaning up',
        ],
        [
          'Service',
          'young',
          'ClusterIPNotAllocated',
          'ClusterIPAllocation',
          'Cluster IP [IPv4]: 10.0.0.8 is not allocated; repairing',
        ],
      ],
    );
    await clock.advance('61s');
    events.length = 0;
    const repaired = await serviceEnv({ path, clock, leakRepairs: 1, recordEvent: (e) => events.push(e) });
    try {
      assert.deepEqual((await repaired.services.allocators.ipAllocators[0]?.allocated())?.sort(), [
        '10.0.0.7',
        '10.0.0.8',
      ]);
      const young = (await stored(repaired, '/registry/ipaddresses/10.0.0.8')) as IPAddress;
      assert.equal(young.spec?.parentRef?.name, 'young');
      assert.deepEqual(
        events.map((e) => [e.regarding.name, e.reason, e.note]),
        [
          [
            '10.0.0.99',
            'IPAddressNotAllocated',
            'IPAddress: 10.0.0.99 for Service default/gone appears to have leaked: cleaning up',
          ],
        ],
      );
      assert.deepEqual(await repaired.services.allocators.nodePorts.allocated(), [30007]);
      assert.deepEqual(await repaired.services.allocators.ipBitmaps[0]?.allocated(), [
        '10.0.0.7',
        '10.0.0.8',
      ]);
      const range = await repaired.backend.get('/registry/ranges/servicenodeports');
      const stored2 = JSON.parse(
        Buffer.from(range.kv?.value ?? new Uint8Array()).toString('utf8'),
      ) as RangeAllocation;
      assert.equal(stored2.range, '30000-32767');
    } finally {
      await repaired.close();
    }
  });

  it('the repair reports a cluster IP no range holds after the range changed', async () => {
    const path = join(dir, 'moved.db');
    const env = await serviceEnv({ path });
    try {
      await env.services.create(ctx, svc('old', { clusterIP: '10.0.0.20' }), { options: {} });
    } finally {
      await env.close();
    }
    const events: RepairEvent[] = [];
    const moved = await serviceEnv({
      path,
      clusterIPRange: '10.5.0.0/24',
      recordEvent: (e) => events.push(e),
    });
    try {
      assert.deepEqual(
        events.map((e) => [e.regarding.name, e.reason, e.note]),
        [
          [
            'old',
            'ClusterIPOutOfRange',
            'Cluster IP [IPv4]: 10.0.0.20 is not within any configured Service CIDR; please recreate service',
          ],
        ],
      );
      // Its IPAddress stays: the service still holds the IP.
      assert.notEqual(await stored(moved, '/registry/ipaddresses/10.0.0.20'), null);
    } finally {
      await moved.close();
    }
  });

  it('allocates from ready ServiceCIDRs once the flag range is full, not from one not ready or being deleted', async () => {
    const env = await serviceEnv({ clusterIPRange: '10.0.0.0/29' });
    const cidrs = await newServiceCIDRREST({ restOptionsGetter: env.getter });
    const cluster = testContext('');
    const cidr = (name: string, range: string, extra: Partial<ServiceCIDR> = {}): ServiceCIDR => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'ServiceCIDR',
      metadata: { name },
      spec: { cidrs: [range] },
      ...extra,
    });
    const create = (s: Service): Promise<Service> => env.services.create(ctx, s, { options: {} });
    try {
      for (let i = 0; i < 6; i++) await create(svc(`f${i}`));
      const full = { code: 500, reason: 'InternalError' as const };
      await rejectsWithStatus(create(svc('more')), {
        ...full,
        message: 'Internal error occurred: failed to allocate a serviceIP: range is full',
      });
      await cidrs.serviceCIDRs.create(cluster, cidr('waiting', '10.2.0.0/29'), { options: {} });
      await cidrs.status.update(cluster, 'waiting', {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old) =>
            Promise.resolve({
              ...(old as ServiceCIDR),
              status: {
                conditions: [
                  {
                    type: 'Ready',
                    status: 'False',
                    lastTransitionTime: '2026-01-01T00:00:00Z',
                    reason: 'Waiting',
                    message: '',
                  },
                ],
              },
            }),
        },
        options: {},
      });
      await cidrs.serviceCIDRs.create(
        cluster,
        cidr('going', '10.3.0.0/29', { metadata: { name: 'going', finalizers: ['example.com/hold'] } }),
        { options: {} },
      );
      await cidrs.serviceCIDRs.delete(cluster, 'going', { options: {} });
      await rejectsWithStatus(create(svc('more')), full);
      await rejectsWithStatus(create(svc('static', { clusterIP: '10.3.0.2' })), {
        code: 422,
        reason: 'Invalid',
        message:
          'Service "static" is invalid: spec.clusterIPs: Invalid value: ["10.3.0.2"]: failed to allocate IP 10.3.0.2: the provided network does not match the current range',
      });
      await cidrs.serviceCIDRs.create(cluster, cidr('extra', '10.1.0.0/29'), { options: {} });
      const more = await create(svc('more'));
      assert.match(more.spec?.clusterIP ?? '', /^10\.1\.0\.[1-6]$/);
      // Not in the bitmap: that is the flag range's alone.
      assert.equal(
        (await env.services.allocators.ipBitmaps[0]?.allocated())?.includes(more.spec?.clusterIP ?? ''),
        false,
      );
    } finally {
      await cidrs.serviceCIDRs.destroy();
      await env.close();
    }
  });

  it('dual-writes the bitmap: an IP an older server marked there is not handed out again', async () => {
    const env = await serviceEnv();
    try {
      const bitmap = env.services.allocators.ipBitmaps[0];
      assert.ok(bitmap !== undefined);
      // An older server, allocating from the bitmap alone, took 10.0.0.12.
      await bitmap.allocate('10.0.0.12', false);
      await rejectsWithStatus(
        env.services.create(ctx, svc('old', { clusterIP: '10.0.0.12' }), { options: {} }),
        {
          code: 422,
          reason: 'Invalid',
          message:
            'Service "old" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.12"]: failed to allocate IP 10.0.0.12: provided IP is already allocated',
        },
      );
      assert.equal(await stored(env, '/registry/ipaddresses/10.0.0.12'), null);
      const made = await env.services.create(ctx, svc('new', { clusterIP: '10.0.0.13' }), { options: {} });
      assert.deepEqual(await bitmap.allocated(), ['10.0.0.12', '10.0.0.13']);
      await env.services.delete(ctx, made.metadata?.name ?? '', { options: {} });
      assert.deepEqual(await bitmap.allocated(), ['10.0.0.12']);
    } finally {
      await env.close();
    }
  });

  it('two servers on one store never hand out the same IP or node port', async () => {
    const one = await serviceEnv();
    const two = await serviceEnv({ sharing: one });
    try {
      const made = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? one : two).services.create(ctx, svc(`r${i}`, { type: 'NodePort' }), { options: {} }),
        ),
      );
      const ips = new Set(made.map((s) => s.spec?.clusterIP));
      const ports = new Set(made.map((s) => s.spec?.ports?.[0]?.nodePort));
      assert.equal(ips.size, 40);
      assert.equal(ports.size, 40);
      assert.equal((await one.services.allocators.ipAllocators[0]?.allocated())?.length, 40);
      // Deleting gives the IPs back: their IPAddress objects go.
      await Promise.all(
        made.map((s, i) =>
          (i % 2 === 0 ? two : one).services.delete(ctx, s.metadata?.name ?? '', { options: {} }),
        ),
      );
      assert.deepEqual(await one.services.allocators.ipAllocators[0]?.allocated(), []);
    } finally {
      await two.close();
      await one.close();
    }
  });

  it('serves a second, IPv6 range for dual-stack services', async () => {
    const env = await serviceEnv({ clusterIPRange: '10.0.0.0/24,fd00:10::/108' });
    try {
      const dual = await env.services.create(ctx, svc('dual', { ipFamilyPolicy: 'PreferDualStack' }), {
        options: {},
      });
      assert.deepEqual(dual.spec?.ipFamilies, ['IPv4', 'IPv6']);
      assert.equal(parseIP(dual.spec.clusterIPs?.[1] ?? '')?.family, 'IPv6');
      const v6 = await env.services.create(ctx, svc('v6', { ipFamilies: ['IPv6'] }), { options: {} });
      assert.match(v6.spec?.clusterIP ?? '', /^fd00:10::/);
      const v6ip = (await stored(env, `/registry/ipaddresses/${v6.spec?.clusterIP ?? ''}`)) as IPAddress;
      assert.equal(v6ip.metadata?.labels?.['ipaddress.kubernetes.io/ip-family'], 'IPv6');
      assert.notEqual(await env.backend.get('/registry/ranges/secondaryserviceips').then((r) => r.kv), null);
      const single = await serviceEnv();
      try {
        await rejectsWithStatus(
          single.services.create(ctx, svc('req', { ipFamilyPolicy: 'RequireDualStack' }), { options: {} }),
          {
            code: 422,
            reason: 'Invalid',
            message:
              'Service "req" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
          },
        );
      } finally {
        await single.close();
      }
    } finally {
      await env.close();
    }
  });
});
