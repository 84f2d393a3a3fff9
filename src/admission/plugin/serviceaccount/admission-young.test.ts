// ServiceAccount admission keeps nothing of a request's pod once the request is done. Its memo of the
// account each request found is a WeakMap by request, and V8's young-generation collections keep a
// WeakMap's values alive until a full collection whatever became of their keys: a memo value that
// held the pod took every pod admitted into the old generation (docs/performance.md, stop 42).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { promotedPerCall } from '../../../machinery/testing/heap.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { newServiceAccountREST } from '../../../registry/core/serviceaccount/storage.js';
import { ServiceAccountAdmission } from './admission.js';

const ns = 'team';
let rest: MemoryRESTOptions;
let plugin: ServiceAccountAdmission;

before(async () => {
  rest = await memoryRESTOptions();
  const serviceAccounts = await newServiceAccountREST({ restOptionsGetter: rest.getter });
  await serviceAccounts.create(testContext(ns), { metadata: { name: 'default' } }, { options: {} });
  plugin = new ServiceAccountAdmission({ serviceAccounts });
});
after(() => rest.close());

/** A pod of ~25 KB of objects: five containers with 120 variables each. */
const bigPod = (name: string): Pod => ({
  metadata: { name },
  spec: {
    containers: Array.from({ length: 5 }, (_, c) => ({
      name: `c${c}`,
      image: 'nginx',
      env: Array.from({ length: 120 }, (_, e) => ({ name: `VARIABLE_${e}`, value: `value ${c}.${e}` })),
    })),
  },
});

it('lets each request’s pod die in the young generation', async () => {
  const admit = async (i: number): Promise<void> => {
    const request = testContext(ns);
    const object = bigPod(`p${i}`);
    const attrs = {
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: '',
      operation: 'CREATE' as const,
      namespace: ns,
      name: `p${i}`,
      object,
      oldObject: null,
      userInfo: request.user,
      dryRun: false,
    };
    await plugin.admit(request, attrs);
    await plugin.validate(request, attrs);
  };
  const promotedPerPod = await promotedPerCall(400, admit);
  // A pod is ~25 KB of objects; held by the memo, each was promoted.
  assert.ok(promotedPerPod < 6000, `${promotedPerPod.toFixed(0)} bytes promoted per pod admitted`);
});
