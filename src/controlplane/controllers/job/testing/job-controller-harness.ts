// A running JobController over a workload harness's in-memory storages, for the Job tests.
import type { Job } from '../../../../api/batch/v1/job.js';
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { WorkloadHarness } from '../../simulation/testing/workload-harness.js';
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
