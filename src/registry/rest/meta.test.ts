// The one namespace check: the same Status, with kube's text, whether the Store's create or update
// refuses an object of another namespace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget, type Widget } from '../generic/testing/widgets.js';
import type { Store } from '../generic/store.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForResource,
  expectedNamespaceForScope,
} from './meta.js';

const mismatch = {
  code: 400,
  reason: 'BadRequest',
  message: 'the namespace of the provided object does not match the namespace sent on the request',
};

describe('ensureObjectNamespaceMatchesRequestNamespace', () => {
  it('fills an empty namespace, clears one on a cluster-scoped request, refuses another', () => {
    const meta: { namespace?: string } = {};
    ensureObjectNamespaceMatchesRequestNamespace('a', meta);
    assert.equal(meta.namespace, 'a');
    ensureObjectNamespaceMatchesRequestNamespace('', meta);
    assert.equal('namespace' in meta, false);
    assert.throws(() => {
      ensureObjectNamespaceMatchesRequestNamespace('a', { namespace: 'b' });
    }, /does not match the namespace sent on the request/);
    assert.equal(expectedNamespaceForScope('a', false), '');
    assert.equal(expectedNamespaceForResource('a', { group: '', resource: 'namespaces' }), '');
    assert.equal(expectedNamespaceForResource('a', { group: '', resource: 'pods' }), 'a');
  });
});

describe('the Store refuses an object of another namespace', () => {
  let env: MemoryRESTOptions;
  let store: Store<Widget>;
  before(async () => {
    env = await memoryRESTOptions();
    store = await newWidgetStore({ restOptions: env.getter });
  });
  after(() => env.close());

  it('on create and on update, with one text', async () => {
    const other = { ...widget('w1'), metadata: { name: 'w1', namespace: 'b' } };
    await rejectsWithStatus(
      store.create(testContext('a'), structuredClone(other), { options: {} }),
      mismatch,
    );
    await store.create(testContext('a'), widget('w1'), { options: {} });
    await rejectsWithStatus(
      store.update(testContext('a'), 'w1', {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: () => Promise.resolve(structuredClone(other)),
        },
        options: {},
      }),
      mismatch,
    );
  });
});
