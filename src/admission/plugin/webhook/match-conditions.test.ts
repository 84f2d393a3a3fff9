import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import { MatchConditionMatcher } from './match-conditions.js';

const objectWith = (text: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c' },
  data: { text },
});

describe('webhook matchConditions', () => {
  // contains() over a 1,000,000-character text with a 90-character substring costs 100,000 × 9.
  const costly = `!object.data.text.contains('${'b'.repeat(90)}')`;
  const conditions = ['one', 'two', 'three'].map((name) => ({ name, expression: costly }));
  const input = (text: string): Parameters<MatchConditionMatcher['match']>[0] => ({
    object: objectWith(text),
    oldObject: null,
    request: {},
  });

  it('matches while the conditions stay inside their budget', async () => {
    const matcher = new MatchConditionMatcher(conditions, 'Fail');
    assert.deepEqual(await matcher.match(input('a'.repeat(600_000))), { matches: true, evaluationErrors: 0 });
  });

  it('past the budget of all conditions, fails closed or skips the webhook per failurePolicy', async () => {
    const text = 'a'.repeat(1_000_000);
    assert.deepEqual(await new MatchConditionMatcher(conditions, 'Fail').match(input(text)), {
      matches: false,
      error: 'validation failed due to running out of cost budget, no further validation rules will be run',
      // The budget is the evaluation's, not one condition's (kube's metrics count no error).
      evaluationErrors: 0,
    });
    assert.deepEqual(await new MatchConditionMatcher(conditions, 'Ignore').match(input(text)), {
      matches: false,
      evaluationErrors: 0,
    });
  });

  it('a condition past the per-call limit is an evaluation error', async () => {
    const expression = `!object.data.text.contains('${'b'.repeat(101)}')`;
    const matcher = new MatchConditionMatcher([{ name: 'big', expression }], 'Fail');
    assert.deepEqual(await matcher.match(input('a'.repeat(1_000_000))), {
      matches: false,
      error: `expression '${expression}' resulted in error: operation cancelled: actual cost limit exceeded`,
      evaluationErrors: 1,
    });
  });

  it('counts the conditions that failed to evaluate before one that is false', async () => {
    const matcher = new MatchConditionMatcher(
      [
        { name: 'broken', expression: "object.metadata.labels['team'] == 'a'" },
        { name: 'uncompiled', expression: 'object.(' },
        { name: 'false', expression: 'false' },
      ],
      'Fail',
    );
    assert.deepEqual(await matcher.match(input('x')), {
      matches: false,
      failedCondition: 'false',
      evaluationErrors: 2,
    });
  });
});
