import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newServiceAccountREST } from './storage.js';

const sa = (name: string, more: Partial<ServiceAccount> = {}): ServiceAccount => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name },
  ...more,
});

describe('serviceaccounts', () => {
  let env: MemoryRESTOptions;
  let store: Store<ServiceAccount>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newServiceAccountREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores under /registry/serviceaccounts/<ns>/<name>, keeping only secret names', async () => {
    const out = await store.create(
      ctx,
      sa('builder', { secrets: [{ name: 'tok', namespace: 'x', kind: 'Secret' }, { name: 'b' }] }),
      { options: {} },
    );
    assert.deepEqual(out.secrets, [{ name: 'tok' }, { name: 'b' }]);
    assert.notEqual((await env.backend.get('/registry/serviceaccounts/default/builder')).kv, null);
    assert.deepEqual(store.shortNames(), ['sa']);
    const list = await store.list(ctx, { fieldSelector: 'metadata.name=builder' });
    assert.equal(list.items.length, 1);
  });

  it('prints NAME SECRETS AGE', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'builder', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Secrets', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['builder', 2]);
  });

  it('requires a DNS subdomain name', async () => {
    await rejectsWithStatus(store.create(ctx, sa('Bad_Name'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        "ServiceAccount \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    });
  });
});
