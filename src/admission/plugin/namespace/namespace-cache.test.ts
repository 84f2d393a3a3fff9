import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Attributes, Operation } from '../../attributes.js';
import { NamespaceLifecycle } from './lifecycle.js';
import { forceLiveLookupTTLMs, NamespaceCache } from './namespace-cache.js';

const ns = (name: string, phase: 'Active' | 'Terminating'): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
  status: { phase },
});

describe('NamespaceCache', () => {
  it('keeps Active namespaces for the TTL only', () => {
    let now = 1000;
    const cache = new NamespaceCache({ ttlMs: 100, now: () => now });
    cache.set('a', ns('a', 'Active'));
    cache.set('t', ns('t', 'Terminating'));
    assert.equal(cache.get('a')?.metadata?.name, 'a');
    assert.equal(cache.get('t'), undefined);
    now += 100;
    assert.equal(cache.get('a'), undefined);
  });

  it('reads a namespace being deleted live for kube’s 30s', () => {
    let now = 0;
    const cache = new NamespaceCache({ ttlMs: 60_000, now: () => now });
    cache.set('a', ns('a', 'Active'));
    cache.forceLiveLookup('a');
    cache.set('a', ns('a', 'Active'));
    assert.equal(cache.get('a'), undefined);
    now += forceLiveLookupTTLMs;
    assert.equal(cache.get('a')?.metadata?.name, 'a');
  });

  it('holds at most maxEntries, dropping the oldest; TTL 0 keeps nothing', () => {
    const cache = new NamespaceCache({ ttlMs: 1000, maxEntries: 2 });
    for (const n of ['a', 'b', 'c']) cache.set(n, ns(n, 'Active'));
    assert.deepEqual(
      ['a', 'b', 'c'].map((n) => cache.get(n) !== undefined),
      [false, true, true],
    );
    const none = new NamespaceCache({ ttlMs: 0 });
    none.set('a', ns('a', 'Active'));
    assert.equal(none.get('a'), undefined);
  });
});

describe('NamespaceLifecycle reads', () => {
  const attributes = (operation: Operation, namespace: string, kind = 'ConfigMap'): Attributes => ({
    operation,
    kind: { group: '', version: 'v1', kind },
    resource: { group: '', version: 'v1', resource: kind === 'Namespace' ? 'namespaces' : 'configmaps' },
    subresource: '',
    namespace,
    name: kind === 'Namespace' ? namespace : 'x',
    object: null,
    oldObject: null,
    userInfo: { name: 'u', groups: [] },
    dryRun: false,
  });

  it('reads storage once per TTL, and live again once a delete of the namespace was admitted', async () => {
    let reads = 0;
    let phase: 'Active' | 'Terminating' = 'Active';
    const getter: Getter = {
      get: (_c, name) => {
        reads++;
        return Promise.resolve(ns(name, phase));
      },
    };
    const plugin = new NamespaceLifecycle({ namespaces: getter, cacheTTLMs: 60_000 });
    const ctx = internalContext();
    await plugin.admit(ctx, attributes('CREATE', 'team'));
    await plugin.admit(ctx, attributes('UPDATE', 'team'));
    await plugin.admit(ctx, attributes('DELETE', 'team'));
    assert.equal(reads, 1);
    await plugin.admit(ctx, attributes('DELETE', 'team', 'Namespace'));
    phase = 'Terminating';
    await assert.rejects(
      async () => plugin.admit(ctx, attributes('CREATE', 'team')),
      /because it is being terminated/,
    );
    assert.equal(reads, 2);
    plugin.close();
  });
});
