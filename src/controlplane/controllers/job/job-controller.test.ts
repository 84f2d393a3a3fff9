// The job controller over real in-memory storages, its pod creates refused as an exceeded
// ResourceQuota refuses them, then let through.
// test-batches: alone -- useJobController puts its hooks on the file's root, as a top-level before/after would.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job } from '../../../api/batch/v1/job.js';
import type { WorkloadHarness } from '../simulation/testing/workload-harness.js';
import { useJobController } from './testing/job-controller-harness.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';

const ns = 'default';
const quota = 'exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0';
let h: WorkloadHarness;
useJobController((made) => (h = made));

describe('job controller', () => {
  it('records FailedCreate and still writes the status when its pods are refused', async () => {
    h.refusePodCreates(quota);
    await h.client.create<Job>('batch/v1/jobs', ns, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi', namespace: ns },
      spec: {
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      },
    });
    const get = () => h.client.get<Job>('batch/v1/jobs', { namespace: ns, name: 'pi' });
    const refused = await waitFor('pi started', get, (j) => j.status?.startTime !== undefined);
    assert.equal(refused.status?.active ?? 0, 0);
    // The Job controller sets no condition for a failed create.
    assert.deepEqual(refused.status?.conditions ?? [], []);
    const events = await waitFor(
      'FailedCreate',
      () => h.eventsAbout(ns, 'pi'),
      (l) => l.length > 0,
    );
    assert.deepEqual(
      events.map((e) => [e.type, e.reason, e.message]),
      [['Warning', 'FailedCreate', `Error creating: pods is forbidden: ${quota}`]],
    );

    h.refusePodCreates(undefined);
    await waitFor('pi active', get, (j) => j.status?.active === 1);
    const reasons = (await h.eventsAbout(ns, 'pi')).map((e) => e.reason).sort();
    assert.deepEqual(reasons, ['FailedCreate', 'SuccessfulCreate']);
  });
});
