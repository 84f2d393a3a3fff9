// A running JobController over a workload harness's in-memory storages, for the Job tests.
import { after, before } from 'node:test';
import type { Job } from '../../../../api/batch/v1/job.js';
import type { Pod } from '../../../../api/core/v1/pod.js';
import { startWorkloadHarness, type WorkloadHarness } from '../../simulation/testing/workload-harness.js';
import { JobController } from '../job-controller.js';

export async function startJobController(h: WorkloadHarness): Promise<JobController> {
  const controller = new JobController({
    client: h.client,
    jobs: await h.informer<Job>('batch/v1/jobs'),
    pods: await h.informer<Pod>('/v1/pods'),
    clock: h.clock,
    logger: h.logger,
    recorder: h.recorder('job-controller'),
  });
  controller.run();
  return controller;
}

/**
 * A harness and a JobController over it for the tests of the scope this is called in (a file or a
 * describe): started before them, the harness handed to `started`, both closed after them.
 */
export function useJobController(started: (h: WorkloadHarness) => void): void {
  let h: WorkloadHarness | undefined;
  let controller: JobController | undefined;
  before(async () => {
    h = await startWorkloadHarness();
    started(h);
    controller = await startJobController(h);
  });
  after(async () => {
    await controller?.close();
    await h?.close();
  });
}
