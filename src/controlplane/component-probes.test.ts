// componentstatuses' probes: the controllers are healthy while a replica holds their Lease, the
// scheduler only when --simulate runs one, etcd-0 while the storage answers.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { systemClock } from '../machinery/time/clock.js';
import { componentStatus } from '../registry/core/componentstatus/probe.js';
import { Logger } from '../server/logging/logger.js';
import { BackendFactory } from '../storage/backend-factory/factory.js';
import { forResource } from '../storage/backend-factory/config.js';
import { componentProbes } from './component-probes.js';
import { LeaderControllers } from './replicas/leader-controllers.js';
import { LeaderElector } from './replicas/leader-elector.js';

const logger = new Logger({ sink: { write: () => true } });
const storage = { type: 'memory', prefix: '/registry', transport: {} };

async function probed(scheduler: boolean, leading: boolean): Promise<Record<string, unknown>> {
  const backends = new BackendFactory();
  after(() => backends.close());
  const controllers = new LeaderControllers();
  controllers.attach(
    new LeaderElector({
      backend: await backends.backendFor(forResource(storage, { group: '', resource: 'namespaces' })),
      prefix: '/registry',
      timings: { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 200 },
      clock: systemClock,
      logger,
      callbacks: controllers.callbacks,
    }),
  );
  // A controller's run() starts the election; on a local store it leads at once.
  const c = controllers.controller(() => ({ run: () => undefined, close: () => Promise.resolve() }));
  if (leading) c?.run();
  after(() => controllers.close());
  const probes = componentProbes({ backends, storage, controllers, scheduler });
  const out: Record<string, unknown> = {};
  for (const p of probes) out[p.name] = (await componentStatus(p, AbortSignal.timeout(5000))).conditions?.[0];
  return out;
}

it('reports the controllers and the scheduler healthy while this replica leads under --simulate', async () => {
  assert.deepEqual(await probed(true, true), {
    scheduler: { type: 'Healthy', status: 'True', message: 'ok' },
    'controller-manager': { type: 'Healthy', status: 'True', message: 'ok' },
    'etcd-0': { type: 'Healthy', status: 'True', message: 'ok' },
  });
});

it('reports no scheduler without --simulate, and no controllers while no replica leads', async () => {
  const noLease = 'no replica holds the Lease kube-system/capstan-controller-manager, so no controllers run';
  assert.deepEqual(await probed(false, false), {
    scheduler: {
      type: 'Healthy',
      status: 'False',
      error: 'no scheduler runs in this server (--simulate runs one)',
    },
    'controller-manager': { type: 'Healthy', status: 'False', error: noLease },
    'etcd-0': { type: 'Healthy', status: 'True', message: 'ok' },
  });
  assert.deepEqual((await probed(true, false))['scheduler'], {
    type: 'Healthy',
    status: 'False',
    error: noLease,
  });
});
