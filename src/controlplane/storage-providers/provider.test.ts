import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GroupVersionResource } from '../../machinery/schema/group-resource.js';
import type { RESTOptionsGetter } from '../../registry/generic/rest-options.js';
import { alwaysAllowAuthorizer } from '../../registry/rest/authorizer.js';
import type { Storage } from '../../registry/rest/capabilities.js';
import { newGroupRESTStorage, type StorageProviderInit } from './provider.js';

// The builders below never touch storage: this tests which resources get built and what is released.
const unusedGetter = {} as RESTOptionsGetter;

function initWith(enabled: (r: GroupVersionResource) => boolean): StorageProviderInit {
  return {
    restOptionsGetter: unusedGetter,
    resourceConfig: { resourceEnabled: enabled },
    authorizer: alwaysAllowAuthorizer,
  };
}

function tracked(destroyed: string[], name: string): Storage {
  return {
    newFunc: () => ({}),
    destroy: () => {
      destroyed.push(name);
    },
  } as unknown as Storage;
}

describe('newGroupRESTStorage', () => {
  it('builds only enabled resources, keeps version priority and drops versions left empty', async () => {
    const destroyed: string[] = [];
    const info = await newGroupRESTStorage(
      initWith((r) => !(r.version === 'v1' && r.resource === 'b') && r.version !== 'v1beta1'),
      {
        group: 'example.io',
        versions: [
          {
            version: 'v2',
            resources: {
              a: () => Promise.resolve({ a: tracked(destroyed, 'a2'), 'a/status': tracked(destroyed, 's') }),
            },
          },
          {
            version: 'v1',
            resources: {
              a: () => Promise.resolve({ a: tracked(destroyed, 'a1') }),
              b: () => Promise.reject(new Error('b is off and must not be built')),
            },
          },
          { version: 'v1beta1', resources: { a: () => Promise.resolve({ a: tracked(destroyed, 'x') }) } },
        ],
      },
    );
    assert.ok(info !== undefined);
    assert.deepEqual(info.prioritizedVersions, ['v2', 'v1']);
    assert.deepEqual(Object.keys(info.versionedResourcesStorageMap['v2'] ?? {}), ['a', 'a/status']);
    assert.deepEqual(Object.keys(info.versionedResourcesStorageMap['v1'] ?? {}), ['a']);
  });

  it('is undefined when no resource of the group is enabled', async () => {
    const info = await newGroupRESTStorage(
      initWith(() => false),
      {
        group: 'example.io',
        versions: [{ version: 'v1', resources: { a: () => Promise.reject(new Error('built')) } }],
      },
    );
    assert.equal(info, undefined);
  });

  it('destroys what it built, once each, when a later resource fails', async () => {
    const destroyed: string[] = [];
    const shared = tracked(destroyed, 'shared');
    await assert.rejects(
      newGroupRESTStorage(
        initWith(() => true),
        {
          group: 'example.io',
          versions: [
            { version: 'v2', resources: { a: () => Promise.resolve({ a: shared }) } },
            {
              version: 'v1',
              resources: {
                a: () => Promise.resolve({ a: shared }),
                b: () => Promise.reject(new Error('disk full')),
              },
            },
          ],
        },
      ),
      /disk full/,
    );
    assert.deepEqual(destroyed, ['shared']);
  });
});
