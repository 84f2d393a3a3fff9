import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Job, SuccessPolicyRule } from '../../../api/batch/v1/job.js';
import { matchSuccessPolicy } from './success-policy.js';

const job = (rules: SuccessPolicyRule[], completions = 10): Job => ({
  spec: { completionMode: 'Indexed', completions, successPolicy: { rules } },
});

describe('successPolicy', () => {
  it('is met once every index of succeededIndexes succeeded', () => {
    const j = job([{ succeededIndexes: '0,2-4' }]);
    assert.equal(matchSuccessPolicy(j, [0, 2, 3]), undefined);
    assert.equal(matchSuccessPolicy(j, [0, 1, 2, 3, 4]), 'Matched rules at index 0');
  });

  it('with succeededCount too, once that many of those indexes succeeded', () => {
    // kube's example: indexes 1-4, count 3, and 1, 3 and 5 succeeded: not met.
    const j = job([{ succeededIndexes: '1-4', succeededCount: 3 }]);
    assert.equal(matchSuccessPolicy(j, [1, 3, 5]), undefined);
    assert.equal(matchSuccessPolicy(j, [1, 3, 4]), 'Matched rules at index 0');
  });

  it('with succeededCount alone, once that many indexes succeeded', () => {
    const j = job([{ succeededIndexes: '9' }, { succeededCount: 2 }]);
    assert.equal(matchSuccessPolicy(j, [5]), undefined);
    assert.equal(matchSuccessPolicy(j, [5, 7]), 'Matched rules at index 1');
  });

  it('takes the first rule met and passes over rules it cannot read', () => {
    const j = job([{ succeededIndexes: 'x' }, { succeededIndexes: '12' }, { succeededIndexes: '1' }], 10);
    assert.equal(matchSuccessPolicy(j, [1]), 'Matched rules at index 2');
    assert.equal(matchSuccessPolicy(job([]), [1]), undefined);
    assert.equal(matchSuccessPolicy(job([{ succeededCount: 0 }]), []), undefined);
  });

  it('counts a rule of a billion indexes over its intervals, without listing them', () => {
    const j = job([{ succeededIndexes: '0-999999999', succeededCount: 2 }], 1_000_000_000);
    assert.equal(matchSuccessPolicy(j, [7]), undefined);
    assert.equal(matchSuccessPolicy(j, [7, 999_999_999]), 'Matched rules at index 0');
    const all = job([{ succeededIndexes: '3,5-999999999,' }], 1_000_000_000);
    assert.equal(matchSuccessPolicy(all, [3, 5]), undefined);
  });
});
