import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NamespaceCondition, NamespaceStatus } from '../../../api/core/v1/namespace.js';
import {
  gvrString,
  namespaceConditionTypes,
  updateConditions,
  type ContentTotals,
} from './status-conditions.js';

function condition(status: NamespaceStatus, type: string): NamespaceCondition {
  const found = status.conditions?.find((c) => c.type === type);
  assert.ok(found, type);
  return found;
}

const clean: ContentTotals = { remaining: new Map(), finalizers: new Map(), deleteErrors: [] };

describe('namespace deletion conditions', () => {
  it('sets every type, False with its ok reason, when all went well', () => {
    const status: NamespaceStatus = { phase: 'Terminating' };
    assert.equal(updateConditions(status, clean), true);
    assert.deepEqual(
      status.conditions?.map((c) => [c.type, c.status, c.reason]),
      [
        ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
        ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
        ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
        ['NamespaceContentRemaining', 'False', 'ContentRemoved'],
        ['NamespaceFinalizersRemaining', 'False', 'ContentRemoved'],
      ],
    );
    assert.deepEqual(Object.keys(condition(status, 'NamespaceContentRemaining')), [
      'type',
      'status',
      'lastTransitionTime',
      'reason',
      'message',
    ]);
    assert.equal(updateConditions(status, clean), false);
    assert.equal(namespaceConditionTypes.length, 5);
  });

  it('reports what remains and what failed, sorted, and moves lastTransitionTime only on a flip', () => {
    const status: NamespaceStatus = {};
    updateConditions(status, clean);
    const before = status.conditions?.find((c) => c.type === 'NamespaceContentRemaining');
    assert.ok(before);
    before.lastTransitionTime = '2020-01-01T00:00:00Z';
    const widgets = { group: 'example.com', version: 'v1', resource: 'widgets' };
    const secrets = { group: '', version: 'v1', resource: 'secrets' };
    const totals: ContentTotals = {
      remaining: new Map([
        [widgets, 2],
        [secrets, 1],
      ]),
      finalizers: new Map([
        ['z.io/b', 1],
        ['a.io/a', 2],
      ]),
      deleteErrors: ['second failure', 'first failure'],
    };
    assert.equal(updateConditions(status, totals), true);
    assert.equal(
      condition(status, 'NamespaceContentRemaining').message,
      'Some resources are remaining: secrets. has 1 resource instances, widgets.example.com has 2 resource instances',
    );
    assert.notEqual(
      condition(status, 'NamespaceContentRemaining').lastTransitionTime,
      '2020-01-01T00:00:00Z',
    );
    assert.equal(
      condition(status, 'NamespaceFinalizersRemaining').message,
      'Some finalizers are remaining: a.io/a in 2 resource instances, z.io/b in 1 resource instances',
    );
    assert.equal(condition(status, 'NamespaceFinalizersRemaining').reason, 'SomeFinalizerRemain');
    assert.equal(
      condition(status, 'NamespaceDeletionContentFailure').message,
      'Failed to delete all resource types, 2 remaining: first failure, second failure',
    );
    assert.equal(condition(status, 'NamespaceDeletionContentFailure').reason, 'ContentDeletionFailed');

    const flipped = condition(status, 'NamespaceContentRemaining');
    flipped.lastTransitionTime = '2020-01-01T00:00:00Z';
    updateConditions(status, { ...totals, remaining: new Map([[secrets, 3]]) });
    assert.equal(flipped.lastTransitionTime, '2020-01-01T00:00:00Z');
    assert.equal(flipped.message, 'Some resources are remaining: secrets. has 3 resource instances');
  });

  it('prints a resource as kube prints a GroupVersionResource', () => {
    assert.equal(gvrString({ group: '', version: 'v1', resource: 'configmaps' }), '/v1, Resource=configmaps');
    assert.equal(
      gvrString({ group: 'apps', version: 'v1', resource: 'deployments' }),
      'apps/v1, Resource=deployments',
    );
  });
});
