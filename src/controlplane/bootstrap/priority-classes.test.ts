import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PriorityClass } from '../../api/scheduling/v1/priority-class.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { internalContext } from '../../registry/rest/context.js';
import {
  newPriorityClassREST,
  type PriorityClassREST,
} from '../../registry/scheduling/priorityclass/storage.js';
import { Logger, memorySink } from '../../server/logging/logger.js';
import { priorityClassHooks, systemPriorityClassesHookName } from './priority-classes.js';

const quiet = new Logger({ sink: memorySink() });

describe('system priority classes hook', () => {
  let env: MemoryRESTOptions;
  let store: PriorityClassREST;
  before(async () => {
    env = await memoryRESTOptions();
    store = await newPriorityClassREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  const groups = (): APIGroupInfo[] => [
    {
      group: 'scheduling.k8s.io',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: { priorityclasses: store } },
    },
  ];

  it('creates system-node-critical and system-cluster-critical, and is a no-op when run again', async () => {
    const hook = priorityClassHooks(groups())[systemPriorityClassesHookName];
    assert.ok(hook !== undefined);
    const ctx = { signal: new AbortController().signal, logger: quiet };
    await hook(ctx);
    await hook(ctx);
    const list = await store.list(internalContext(), {});
    const byName = (items: PriorityClass[]) =>
      items.map((pc) => [pc.metadata?.name, pc.value, pc.globalDefault ?? false, pc.preemptionPolicy]);
    assert.deepEqual(byName(list.items), [
      ['system-cluster-critical', 2000000000, false, 'PreemptLowerPriority'],
      ['system-node-critical', 2000001000, false, 'PreemptLowerPriority'],
    ]);
  });

  it('adds no hook when priorityclasses are not served', () => {
    assert.deepEqual(priorityClassHooks([]), {});
  });
});
