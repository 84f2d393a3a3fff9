import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import {
  failedIndexesOf,
  indexFailureCountAnnotation,
  indexIgnoredFailureCountAnnotation,
  isIndexFailed,
  newIndexFailureCounts,
  withIndexFailureCounts,
} from './index-failures.js';
import { completionIndexAnnotation } from './indexed.js';
import { indexedJobCondition } from './indexed-conditions.js';
import { indexesReadyNow, podsWithDelayedDeletion, remainingIndexBackoff } from './per-index-backoff.js';

const tracking = 'batch.kubernetes.io/job-tracking';

function pod(
  index: number,
  at: {
    phase?: NonNullable<Pod['status']>['phase'];
    failures?: string;
    ignored?: string;
    exitCode?: number;
    uid?: string;
    at?: number;
  },
): Pod {
  const annotations: Record<string, string> = { [completionIndexAnnotation]: String(index) };
  if (at.failures !== undefined) annotations[indexFailureCountAnnotation] = at.failures;
  if (at.ignored !== undefined) annotations[indexIgnoredFailureCountAnnotation] = at.ignored;
  const finishedAt = new Date(at.at ?? 0).toISOString();
  return {
    metadata: { uid: at.uid ?? `u${String(index)}`, annotations, finalizers: [tracking] },
    spec: { containers: [{ name: 'c' }] },
    status: {
      phase: at.phase ?? 'Failed',
      containerStatuses: [
        {
          name: 'c',
          ready: false,
          restartCount: 0,
          image: 'busybox',
          imageID: '',
          state: { terminated: { exitCode: at.exitCode ?? 1, finishedAt } },
        },
      ],
    },
  };
}

const perIndexJob = (spec: Job['spec'] = {}, status: Job['status'] = {}): Job => ({
  spec: { completionMode: 'Indexed', completions: 4, backoffLimitPerIndex: 1, ...spec },
  status,
});

describe('failures per index', () => {
  it('fails an index once a counted failure comes with the count at backoffLimitPerIndex', () => {
    const job = perIndexJob();
    assert.equal(isIndexFailed(job, pod(0, { failures: '0' })), false);
    assert.equal(isIndexFailed(job, pod(0, { failures: '1' })), true);
    // A pod that has not failed, and one whose count is unreadable (0), fail nothing.
    assert.equal(isIndexFailed(job, pod(0, { failures: '5', phase: 'Running' })), false);
    assert.equal(isIndexFailed(job, pod(0, { failures: 'x' })), false);
  });

  it('fails the index at once on a FailIndex rule, never on an ignored failure', () => {
    const job = perIndexJob({
      backoffLimitPerIndex: 3,
      podFailurePolicy: {
        rules: [
          { action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } },
          { action: 'Ignore', onExitCodes: { operator: 'In', values: [7] } },
        ],
      },
    });
    assert.equal(isIndexFailed(job, pod(0, { failures: '0', exitCode: 42 })), true);
    assert.equal(isIndexFailed(job, pod(0, { failures: '3', exitCode: 7 })), false);
    assert.equal(isIndexFailed(job, pod(0, { failures: '3', exitCode: 1 })), true);
  });

  it('adds the newly failed indexes to status.failedIndexes', () => {
    const job = perIndexJob({}, { failedIndexes: '3' });
    const untracked = pod(2, { failures: '1' });
    untracked.metadata = { ...untracked.metadata, finalizers: [] };
    const pods = [pod(0, { failures: '1' }), pod(1, { failures: '0' }), untracked];
    assert.deepEqual(failedIndexesOf(job, pods), [0, 3]);
  });

  it('starts a replacement with its predecessor’s counts, one more where the failure counts', () => {
    const job = perIndexJob({
      podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [7] } }] },
    });
    assert.deepEqual(newIndexFailureCounts(job, undefined), { failures: 0, ignored: 0 });
    assert.deepEqual(newIndexFailureCounts(job, pod(0, { failures: '1' })), { failures: 2, ignored: 0 });
    assert.deepEqual(newIndexFailureCounts(job, pod(0, { failures: '1', ignored: '2', exitCode: 7 })), {
      failures: 1,
      ignored: 3,
    });
    const fresh = withIndexFailureCounts({ metadata: {} }, job, undefined);
    assert.deepEqual(fresh.metadata?.annotations, { [indexFailureCountAnnotation]: '0' });
    const ignored = withIndexFailureCounts({ metadata: {} }, job, pod(0, { exitCode: 7 }));
    assert.deepEqual(ignored.metadata?.annotations, {
      [indexFailureCountAnnotation]: '0',
      [indexIgnoredFailureCountAnnotation]: '1',
    });
  });
});

describe('per-index backoff', () => {
  it('keeps, per index still to run, the failed pod with the most failures', () => {
    const job = perIndexJob();
    const older = pod(0, { failures: '0', uid: 'a', at: 1000 });
    const newer = pod(0, { failures: '1', uid: 'b', at: 2000 });
    const delayed = podsWithDelayedDeletion(job, {
      pods: [newer, older, pod(1, { uid: 'c' }), pod(2, { uid: 'd' }), pod(3, { uid: 'e' })],
      activePods: [pod(1, { phase: 'Running', uid: 'f' })],
      succeededIndexes: [2],
      failedIndexes: [3],
      expectedRemovals: new Set(),
    });
    assert.deepEqual(
      [...delayed].map(([i, p]) => [i, p.metadata?.uid]),
      [[0, 'b']],
    );
  });

  it('waits 10 s after the index’s first failure, doubling with each one after', () => {
    assert.equal(remainingIndexBackoff(undefined, 5000), 0);
    assert.equal(remainingIndexBackoff(pod(0, { failures: '0', at: 1000 }), 5000), 6000);
    assert.equal(remainingIndexBackoff(pod(0, { failures: '1', ignored: '1', at: 1000 }), 5000), 36_000);
    assert.equal(remainingIndexBackoff(pod(0, { failures: '0', at: 1000 }), 11_000), 0);
  });

  it('creates the indexes whose backoff is over, else says how long the first waits', () => {
    const delayed = new Map([
      [0, pod(0, { failures: '0', at: 0 })],
      [1, pod(1, { failures: '1', at: 0 })],
    ]);
    assert.deepEqual(indexesReadyNow([0, 1, 2], { delayed, now: 1000 }), { ready: [2], wait: 0 });
    assert.deepEqual(indexesReadyNow([0, 1], { delayed, now: 1000 }), { ready: [], wait: 9000 });
    assert.deepEqual(indexesReadyNow([0, 1], { delayed, now: 10_000 }), { ready: [0], wait: 0 });
  });
});

describe('what ends an Indexed Job', () => {
  it('fails it past maxFailedIndexes, or once every index finished with some failed', () => {
    const job = perIndexJob({ maxFailedIndexes: 1 });
    assert.equal(indexedJobCondition(job, { succeededIndexes: [0], failedIndexes: [1] }), undefined);
    assert.deepEqual(indexedJobCondition(job, { succeededIndexes: [], failedIndexes: [1, 2] }), {
      type: 'FailureTarget',
      reason: 'MaxFailedIndexesExceeded',
      message: 'Job has exceeded the specified maximal number of failed indexes',
    });
    assert.deepEqual(indexedJobCondition(job, { succeededIndexes: [0, 2, 3], failedIndexes: [1] }), {
      type: 'FailureTarget',
      reason: 'FailedIndexes',
      message: 'Job has failed indexes',
    });
    assert.equal(indexedJobCondition(job, { succeededIndexes: [0, 1, 2, 3], failedIndexes: [] }), undefined);
  });

  it('meets a successPolicy rule, failures per index first', () => {
    const job = perIndexJob({ successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    assert.deepEqual(indexedJobCondition(job, { succeededIndexes: [0], failedIndexes: [] }), {
      type: 'SuccessCriteriaMet',
      reason: 'SuccessPolicy',
      message: 'Matched rules at index 0',
    });
    assert.equal(
      indexedJobCondition(job, { succeededIndexes: [0, 2, 3], failedIndexes: [1] })?.reason,
      'FailedIndexes',
    );
    // Neither applies to a Job that is not Indexed.
    const plain: Job = { spec: { completions: 4, successPolicy: { rules: [{ succeededCount: 1 }] } } };
    assert.equal(indexedJobCondition(plain, { succeededIndexes: [0], failedIndexes: undefined }), undefined);
  });
});
