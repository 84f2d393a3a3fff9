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
import { validateRuntimeClass } from './validation.js';

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

  it('checks the overhead as container limits, at overhead.limits[...]', () => {
    const errs = (podFixed: Record<string, string>) =>
      validateRuntimeClass({ ...rc('oh', 'runc'), overhead: { podFixed } }).map((e) => e.error());
    assert.deepEqual(errs({ cpu: '250m', memory: '-1Gi', nvidia: '1' }), [
      'overhead.limits[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
      'overhead.limits[nvidia]: Invalid value: "nvidia": must be a standard resource type or fully qualified',
      'overhead.limits[nvidia]: Invalid value: "nvidia": must be a standard resource for containers',
    ]);
    assert.deepEqual(errs({ 'hugepages-2Mi': '3Mi' }), [
      'overhead.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
      'overhead: Forbidden: HugePages require cpu or memory',
    ]);
  });

  it("checks scheduling tolerations at kube's doubled path, and repeats at the list's", () => {
    const tolerations = [
      { key: 'a', operator: 'Sometimes' },
      { key: 'k', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 },
      { operator: 'Exists', value: 'v' },
    ];
    const errs = validateRuntimeClass({ ...rc('tol', 'runc'), scheduling: { tolerations } }).map((e) =>
      e.error(),
    );
    assert.deepEqual(errs, [
      'scheduling.tolerations.tolerations[0].operator: Unsupported value: "Sometimes": supported values: "Equal", "Exists"',
      'scheduling.tolerations.tolerations[2].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      'scheduling.tolerations.tolerations[3].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
      'scheduling.tolerations[2]: Duplicate value: core.Toleration{Key:"k", Operator:"Exists", Value:"", Effect:"NoSchedule", TolerationSeconds:(*int64)(0xc000000000)}',
    ]);
  });

  it('validates the object then the update, as kube: a bad label is reported by both', async () => {
    const current = await store.get(ctx, 'gvisor', {});
    const next = { ...current, metadata: { ...current.metadata, labels: { a: '-x-' } } };
    const status = await rejectsWithStatus(store.update(ctx, 'gvisor', put(next)), {
      code: 422,
      reason: 'Invalid',
    });
    const label =
      "metadata.labels: Invalid value: \"-x-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    assert.deepEqual(
      status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`),
      [label, label, label, label],
    );
  });
});
