// The service-cidr-controller over real storages (in-memory SQLite) and a virtual clock: a ServiceCIDR
// gets its finalizer and Ready=True; one being deleted stays, Ready=False Terminating, while an
// allocated IP lies in it alone, and goes once none does and the grace period has passed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { IPAddress } from '../../../api/networking/v1/ip-address.js';
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import { VirtualClock } from '../../../machinery/time/clock.js';
import { newServiceIPAddress } from '../../../registry/core/service/ipaddress-allocator.js';
import type { RESTOptionsGetter } from '../../../registry/generic/rest-options.js';
import type { Store } from '../../../registry/generic/store.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newIPAddressREST } from '../../../registry/networking/ipaddress/storage.js';
import {
  newServiceCIDRREST,
  type ServiceCIDRStorage,
} from '../../../registry/networking/servicecidr/storage.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../registry/rest/context.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import {
  newServiceCIDRController,
  serviceCIDRFinalizer,
  type ServiceCIDRController,
} from './servicecidrs-controller.js';

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
}

const ctx = internalContext();
const cidr = (name: string, cidrs: string[]): ServiceCIDR => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'ServiceCIDR',
  metadata: { name },
  spec: { cidrs },
});

describe('service-cidr-controller', () => {
  const clock = new VirtualClock(Date.parse('2026-01-01T00:00:00Z'));
  let env: MemoryRESTOptions;
  let cidrs: ServiceCIDRStorage;
  let ips: Store<IPAddress>;
  let controller: ServiceCIDRController;
  const get = async (name: string): Promise<ServiceCIDR | undefined> =>
    cidrs.serviceCIDRs.get(ctx, name, {}).catch(() => undefined);
  const ready = (sc: ServiceCIDR | undefined) => sc?.status?.conditions?.find((c) => c.type === 'Ready');

  before(async () => {
    env = await memoryRESTOptions();
    const getter: RESTOptionsGetter = {
      getRESTOptions: (r) => {
        const o = env.getter.getRESTOptions(r);
        return { ...o, storageConfig: { ...o.storageConfig, clock } };
      },
    };
    cidrs = await newServiceCIDRREST({ restOptionsGetter: getter });
    ips = await newIPAddressREST({ restOptionsGetter: getter });
    const group: APIGroupInfo = {
      group: 'networking.k8s.io',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: {
        v1: { servicecidrs: cidrs.serviceCIDRs, 'servicecidrs/status': cidrs.status, ipaddresses: ips },
      },
    };
    const made = newServiceCIDRController([group], { logger: new Logger({ sink: memorySink() }), clock });
    assert.ok(made !== undefined);
    controller = made;
    controller.run();
  });
  after(async () => {
    await controller.close();
    await env.close();
  });

  it('gives a ServiceCIDR its finalizer and Ready=True', async () => {
    await cidrs.serviceCIDRs.create(ctx, cidr('extra', ['10.97.0.0/24']), { options: {} });
    await waitFor('ready', async () => ready(await get('extra'))?.status === 'True');
    const sc = await get('extra');
    assert.deepEqual(sc?.metadata?.finalizers, [serviceCIDRFinalizer]);
    assert.deepEqual(ready(sc), {
      type: 'Ready',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: '',
      message: 'Kubernetes Service CIDR is ready',
    });
  });

  it('keeps a deleted ServiceCIDR while an IP of it is allocated, then lets it go after the grace period', async () => {
    const ip = newServiceIPAddress('10.97.0.10', 'IPv4', { namespace: 'default', name: 'web' });
    await ips.create(ctx, ip, { options: {} });
    await cidrs.serviceCIDRs.delete(ctx, 'extra', { options: {} });
    await waitFor('terminating', async () => ready(await get('extra'))?.reason === 'Terminating');
    assert.deepEqual(ready(await get('extra')), {
      type: 'Ready',
      status: 'False',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: 'Terminating',
      message:
        'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR',
    });
    await ips.delete(ctx, '10.97.0.10', { options: {} });
    // Within the grace period it stays: an allocator may not have seen the deletion yet.
    await delay(100);
    assert.notEqual(await get('extra'), undefined);
    await clock.advance('10s');
    await waitFor('extra to go', async () => (await get('extra')) === undefined);
  });

  it('lets a deleted ServiceCIDR go at once when another one covers its range', async () => {
    await cidrs.serviceCIDRs.create(ctx, cidr('wide', ['10.98.0.0/16']), { options: {} });
    await cidrs.serviceCIDRs.create(ctx, cidr('narrow', ['10.98.1.0/24']), { options: {} });
    await waitFor('finalizers', async () =>
      [await get('wide'), await get('narrow')].every((sc) =>
        (sc?.metadata?.finalizers ?? []).includes(serviceCIDRFinalizer),
      ),
    );
    const ip = newServiceIPAddress('10.98.1.5', 'IPv4', { namespace: 'default', name: 'web' });
    await ips.create(ctx, ip, { options: {} });
    await cidrs.serviceCIDRs.delete(ctx, 'narrow', { options: {} });
    await clock.advance('10s');
    await waitFor('narrow to go', async () => (await get('narrow')) === undefined);
    assert.notEqual(await get('wide'), undefined);
  });
});
