import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import {
  completionIndexAnnotation,
  formatIndexes,
  parseIndexes,
  pendingIndexes,
  succeededIndexes,
  withIndex,
} from './indexed.js';

const pod = (index: string, phase: 'Running' | 'Succeeded'): Pod => ({
  metadata: { annotations: { [completionIndexAnnotation]: index } },
  spec: { containers: [] },
  status: { phase },
});

describe('Indexed completion mode', () => {
  it('writes completed indexes as kube does', () => {
    assert.equal(formatIndexes([]), '');
    assert.equal(formatIndexes([0, 1, 2, 4, 6, 7]), '0-2,4,6,7');
    assert.equal(formatIndexes([3, 4]), '3,4');
  });

  it('counts each succeeded index once, within completions', () => {
    const pods = [
      pod('0', 'Succeeded'),
      pod('0', 'Succeeded'),
      pod('2', 'Succeeded'),
      pod('9', 'Succeeded'),
      pod('x', 'Succeeded'),
    ];
    const job: Job = { spec: { completions: 5 }, status: { completedIndexes: '3-4,7' } };
    assert.deepEqual(succeededIndexes(job, { pods, counted: () => true }), {
      previous: [3, 4],
      all: [0, 2, 3, 4],
    });
  });

  it('reads completedIndexes back', () => {
    assert.deepEqual(parseIndexes('0-2,4,x,6-9', 8), [0, 1, 2, 4, 6, 7]);
    assert.deepEqual(parseIndexes('', 3), []);
  });

  it('hands out the lowest indexes neither done, failed nor running', () => {
    assert.deepEqual(pendingIndexes(5, { succeeded: [0], active: [pod('1', 'Running')] }, 2), [2, 3]);
    assert.deepEqual(
      pendingIndexes(5, { succeeded: [0], failed: [2], active: [pod('1', 'Running')] }, 2),
      [3, 4],
    );
    // Where only failed pods are replaced, a terminating pod holds its index too.
    assert.deepEqual(
      pendingIndexes(
        5,
        { succeeded: [], active: [pod('1', 'Running')], terminating: [pod('0', 'Running')] },
        2,
      ),
      [2, 3],
    );
  });

  it('puts the index in the annotation, label, env and hostname', () => {
    const job: Job = { metadata: { name: 'j' } };
    const p = withIndex({ metadata: {}, spec: { containers: [{ name: 'c' }] } }, job, 3);
    assert.equal(p.metadata?.generateName, 'j-3-');
    assert.equal(p.metadata.labels?.[completionIndexAnnotation], '3');
    assert.equal(p.spec?.hostname, 'j-3');
    assert.deepEqual(p.spec.containers[0]?.env?.[0]?.name, 'JOB_COMPLETION_INDEX');
  });
});
