// The equivalent resources of installed groups: resources over one stored identity are equivalent
// (across groups and versions), a subresource only where it is served, and objects convert through
// the stored version; a storage that converts nothing is equivalent to none but itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { APIGroupInfo } from '../rest/api-group-info.js';
import type { Storage } from '../rest/capabilities.js';
import { internalContext } from '../rest/context.js';
import type { StoredVersionConverter } from '../rest/equivalent-resources.js';
import { EquivalentResourceRegistry } from './equivalent-resource-registry.js';

const ctx = internalContext();
const stored = {};

/** A storage serving `apiVersion` over `stored`, renaming spec.size (stored) to spec.replicas (v2). */
function view(apiVersion: string, kind: string, identity: object = stored): Storage & StoredVersionConverter {
  const renames = apiVersion.endsWith('/v2');
  return {
    newObject: () => ({ apiVersion, kind }),
    destroy: () => undefined,
    storedIdentity: identity,
    toStoredVersion: (_c, obj) => {
      const spec = (obj as { spec?: Record<string, unknown> }).spec ?? {};
      const out = { ...obj, apiVersion: 'example.com/v1', spec: renames ? { size: spec['replicas'] } : spec };
      return Promise.resolve(out as KubeObject);
    },
    fromStoredVersion: (_c, obj) => {
      const spec = (obj as { spec?: Record<string, unknown> }).spec ?? {};
      const out = { ...obj, apiVersion, spec: renames ? { replicas: spec['size'] } : spec };
      return Promise.resolve(out as KubeObject);
    },
  };
}

const plain = (apiVersion: string, kind: string): Storage => ({
  newObject: () => ({ apiVersion, kind }),
  destroy: () => undefined,
});

const groups: APIGroupInfo[] = [
  {
    group: 'example.com',
    prioritizedVersions: ['v2', 'v1'],
    versionedResourcesStorageMap: {
      v1: { things: view('example.com/v1', 'Thing'), 'things/scale': plain('autoscaling/v1', 'Scale') },
      v2: { things: view('example.com/v2', 'Thing'), 'things/status': view('example.com/v2', 'Thing') },
    },
  },
  {
    group: 'other.example.com',
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: {
      v1: { things: view('other.example.com/v1', 'Thing'), gadgets: plain('other.example.com/v1', 'Gadget') },
    },
  },
];

const gvr = (group: string, version: string, resource: string) => ({ group, version, resource });

describe('EquivalentResourceRegistry', () => {
  const registry = new EquivalentResourceRegistry(groups);

  it('lists the resources over the same stored objects, across versions and groups', () => {
    assert.deepEqual(registry.equivalentResourcesFor(gvr('example.com', 'v1', 'things'), ''), [
      gvr('example.com', 'v1', 'things'),
      gvr('example.com', 'v2', 'things'),
      gvr('other.example.com', 'v1', 'things'),
    ]);
    assert.deepEqual(registry.equivalentResourcesFor(gvr('other.example.com', 'v1', 'gadgets'), ''), [
      gvr('other.example.com', 'v1', 'gadgets'),
    ]);
    assert.deepEqual(registry.equivalentResourcesFor(gvr('example.com', 'v1', 'nothing'), ''), []);
  });

  it('lists a subresource only where it is served, with its own kind', () => {
    assert.deepEqual(registry.equivalentResourcesFor(gvr('example.com', 'v1', 'things'), 'status'), [
      gvr('example.com', 'v2', 'things'),
    ]);
    assert.deepEqual(registry.kindFor(gvr('example.com', 'v1', 'things'), 'scale'), {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    assert.deepEqual(registry.kindFor(gvr('example.com', 'v2', 'things'), ''), {
      group: 'example.com',
      version: 'v2',
      kind: 'Thing',
    });
    assert.equal(registry.kindFor(gvr('example.com', 'v2', 'things'), 'scale'), undefined);
  });

  it('converts through the stored version, without touching its argument', async () => {
    const v2 = {
      apiVersion: 'example.com/v2',
      kind: 'Thing',
      metadata: { name: 'a' },
      spec: { replicas: 3 },
    };
    const copy = structuredClone(v2);
    const other = await registry.convert(ctx, v2, {
      from: gvr('example.com', 'v2', 'things'),
      to: gvr('other.example.com', 'v1', 'things'),
      subresource: '',
    });
    assert.deepEqual(other, {
      apiVersion: 'other.example.com/v1',
      kind: 'Thing',
      metadata: { name: 'a' },
      spec: { size: 3 },
    });
    assert.deepEqual(v2, copy);
    const back = await registry.convert(ctx, other, {
      from: gvr('other.example.com', 'v1', 'things'),
      to: gvr('example.com', 'v2', 'things'),
      subresource: '',
    });
    assert.deepEqual(back, v2);
  });

  it('refuses to convert between resources that are not equivalent', async () => {
    await assert.rejects(
      registry.convert(
        ctx,
        { apiVersion: 'example.com/v1', kind: 'Thing' },
        {
          from: gvr('example.com', 'v1', 'things'),
          to: gvr('other.example.com', 'v1', 'gadgets'),
          subresource: '',
        },
      ),
      /not equivalent resources/,
    );
  });
});
