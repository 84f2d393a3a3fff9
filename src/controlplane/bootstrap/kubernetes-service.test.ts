import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Endpoints } from '../../api/core/v1/endpoints.js';
import type { Service } from '../../api/core/v1/service.js';
import type { EndpointSlice } from '../../api/discovery/v1/endpoint-slice.js';
import { newEndpointSliceREST } from '../../registry/discovery/endpointslice/storage.js';
import { newEndpointsREST } from '../../registry/core/endpoint/storage.js';
import { serviceEnv, type ServiceEnv } from '../../registry/core/service/testing/service-env.js';
import type { Store } from '../../registry/generic/store.js';
import { internalContext } from '../../registry/rest/context.js';
import { Logger, memorySink } from '../../server/logging/logger.js';
import { serviceNetworkingFor } from './kubernetes-service-config.js';
import { kubernetesEndpointsRemovalHook, kubernetesServiceHook } from './kubernetes-service.js';

const quiet = new Logger({ sink: memorySink() });
const ctx = internalContext({ namespace: 'default' });

describe('serviceNetworkingFor', () => {
  const flags = {
    serviceClusterIPRange: '',
    serviceNodePortRange: '30000-32767',
    bindAddress: '0.0.0.0',
    securePort: 6443,
    insecurePort: 0,
  };

  it('puts the kubernetes service on the first IP and the endpoint on loopback for 0.0.0.0', () => {
    const n = serviceNetworkingFor(flags);
    assert.equal(n.serviceIP, '10.0.0.1');
    assert.equal(n.endpointIP, '127.0.0.1');
    assert.equal(n.servingPort(), 6443);
    assert.deepEqual(n.nodePortRange, { base: 30000, size: 2768 });
  });

  it('keeps a specific bind address and the IPv6 first address', () => {
    const n = serviceNetworkingFor({
      ...flags,
      serviceClusterIPRange: 'fd00::/112',
      bindAddress: '192.0.2.7',
    });
    assert.equal(n.serviceIP, 'fd00::1');
    assert.equal(n.endpointIP, '192.0.2.7');
  });
});

describe('the kubernetes service hook', () => {
  let env: ServiceEnv;
  let endpoints: Store<Endpoints>;
  let slices: Store<EndpointSlice>;
  before(async () => {
    env = await serviceEnv({ clusterIPRange: '10.96.0.0/24' });
    endpoints = await newEndpointsREST({ restOptionsGetter: env.getter });
    slices = await newEndpointSliceREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  const hook = (endpointIP = '127.0.0.1'): Promise<void> =>
    kubernetesServiceHook({
      services: env.services,
      endpoints,
      endpointSlices: slices,
      serviceIP: '10.96.0.1',
      servingPort: () => 6443,
      endpointIP,
    })({ signal: new AbortController().signal, logger: quiet });

  it('creates the service and its endpoints, and puts back ports someone changed', async () => {
    await hook();
    const svc = await env.services.get(ctx, 'kubernetes', {});
    assert.equal(svc.spec?.clusterIP, '10.96.0.1');
    assert.deepEqual(svc.metadata?.labels, { component: 'apiserver', provider: 'kubernetes' });
    assert.deepEqual(svc.spec.ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }]);
    const ep = await endpoints.get(ctx, 'kubernetes', {});
    assert.deepEqual(ep.subsets, [
      { addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] },
    ]);
    // A loopback address cannot be in an EndpointSlice: none is written for it.
    await assert.rejects(slices.get(ctx, 'kubernetes', {}), /not found/);
    const changed: Service = {
      ...svc,
      spec: { ...svc.spec, ports: [{ name: 'https', port: 444, protocol: 'TCP', targetPort: 1 }] },
    };
    await env.services.update(ctx, 'kubernetes', {
      objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(changed) },
      options: {},
    });
    await hook();
    const again = await env.services.get(ctx, 'kubernetes', {});
    assert.deepEqual(again.spec?.ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }]);
    assert.equal(again.spec.clusterIP, '10.96.0.1');
  });

  it('writes the kubernetes EndpointSlice for a routable address', async () => {
    await hook('192.0.2.10');
    const slice = await slices.get(ctx, 'kubernetes', {});
    assert.deepEqual(slice.metadata?.labels, { 'kubernetes.io/service-name': 'kubernetes' });
    assert.equal(slice.addressType, 'IPv4');
    assert.deepEqual(slice.endpoints, [{ addresses: ['192.0.2.10'], conditions: { ready: true } }]);
    assert.deepEqual(slice.ports, [{ name: 'https', port: 6443, protocol: 'TCP' }]);
    await hook('127.0.0.1');
  });

  it('the pre-shutdown hook takes this server out of the endpoints', async () => {
    await kubernetesEndpointsRemovalHook({ endpoints, endpointIP: '127.0.0.1' })();
    const ep = await endpoints.get(ctx, 'kubernetes', {});
    assert.deepEqual(ep.subsets, []);
  });
});
