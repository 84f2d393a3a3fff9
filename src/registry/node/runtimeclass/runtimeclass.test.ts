import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newRuntimeClassREST } from './storage.js';
import { runtimeClassStrategy } from './strategy.js';

const rc = (name: string, handler: string): RuntimeClass => ({
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name },
  handler,
});
const put = (obj: RuntimeClass): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('runtimeclasses', () => {
  let env: MemoryRESTOptions;
  let store: Store<RuntimeClass>;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newRuntimeClassREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores cluster-scoped and prints NAME HANDLER AGE', async () => {
    const out = await store.create(ctx, rc('gvisor', 'runsc'), { options: {} });
    assert.notEqual((await env.backend.get('/registry/runtimeclasses/gvisor')).kv, null);
    const table = store.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Handler', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['gvisor', 'runsc']);
  });

  it('requires a DNS label handler and keeps it immutable', async () => {
    await rejectsWithStatus(store.create(ctx, rc('bad', 'Run.SC'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        "RuntimeClass.node.k8s.io \"bad\" is invalid: handler: Invalid value: \"Run.SC\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    });
    const current = await store.get(ctx, 'gvisor', {});
    await rejectsWithStatus(store.update(ctx, 'gvisor', put({ ...current, handler: 'kata' })), {
      code: 422,
      reason: 'Invalid',
      message:
        'RuntimeClass.node.k8s.io "gvisor" is invalid: handler: Invalid value: "kata": field is immutable',
    });
  });

  it('warns of retired node labels in its node selector, on create and update', () => {
    const labelled: RuntimeClass = {
      ...rc('zoned', 'runc'),
      scheduling: { nodeSelector: { 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/os': 'linux' } },
    };
    const want = ['scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/os" instead'];
    assert.deepEqual(runtimeClassStrategy.warningsOnCreate(ctx, labelled), want);
    assert.deepEqual(runtimeClassStrategy.warningsOnUpdate(ctx, labelled), want);
  });

  it('may be created by a PUT, and an update must carry a resourceVersion, as kube has it', async () => {
    const { object, created } = await store.update(ctx, 'kata', put(rc('kata', 'kata')));
    assert.equal(created, true);
    const { resourceVersion: _rv, ...meta } = object.metadata ?? {};
    await rejectsWithStatus(store.update(ctx, 'kata', put({ ...object, metadata: meta })), {
      code: 422,
      reason: 'Invalid',
      message:
        'runtimeclasses.node.k8s.io "kata" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
  });
});
