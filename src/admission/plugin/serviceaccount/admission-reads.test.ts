// ServiceAccount admission reads a pod's account once per request: its mutating pass, the check that
// pass runs and the validating pass all want it.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { newServiceAccountREST } from '../../../registry/core/serviceaccount/storage.js';
import { ServiceAccountAdmission } from './admission.js';

const ns = 'team';
const ctx = testContext(ns);
let rest: MemoryRESTOptions;
let serviceAccounts: Awaited<ReturnType<typeof newServiceAccountREST>>;

before(async () => {
  rest = await memoryRESTOptions();
  serviceAccounts = await newServiceAccountREST({ restOptionsGetter: rest.getter });
});
after(() => rest.close());

const account = async (sa: ServiceAccount): Promise<void> => {
  await serviceAccounts.create(ctx, sa, { options: {} });
};
const pod = (name: string, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

it("reads a pod's account once per request, however many times admission asks", async () => {
  await account({ metadata: { name: 'counted' } });
  let reads = 0;
  const counting = {
    get: (...args: Parameters<typeof serviceAccounts.get>) => {
      reads++;
      return serviceAccounts.get(...args);
    },
  };
  const plugin = new ServiceAccountAdmission({ serviceAccounts: counting });
  const request = testContext(ns);
  const p = pod('counted-pod', { serviceAccountName: 'counted' });
  const attrs = (object: Pod) => ({ ...base(object), object });
  await plugin.admit(request, attrs(p));
  await plugin.validate(request, attrs(p));
  assert.equal(reads, 1, 'mutating, its check and the validating phase share one read');
  await plugin.validate(testContext(ns), attrs(p));
  assert.equal(reads, 2, 'another request reads again');
  await account({ metadata: { name: 'other' } });
  const other = pod('counted-pod', { serviceAccountName: 'other' });
  await plugin.validate(request, attrs(other));
  assert.equal(reads, 3, 'and so does a pod of another account');
});

function base(object: Pod) {
  return {
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    operation: 'CREATE' as const,
    namespace: ns,
    name: object.metadata?.name ?? '',
    oldObject: null,
    userInfo: ctx.user,
    dryRun: false,
  };
}
