import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { newNotFound } from '../../machinery/errors/index.js';
import type { Getter } from './capabilities.js';
import { internalContext } from './context.js';
import type { GetOptions } from './options.js';
import { listerGet } from './lister-read.js';

/** A getter whose cache (resourceVersion "0") and storage hold different objects. */
function getter(cached: KubeObject | null, live: KubeObject | null): Getter & { reads: GetOptions[] } {
  const reads: GetOptions[] = [];
  return {
    reads,
    get: (_ctx, name, options) => {
      reads.push(options);
      const obj = options.resourceVersion === '0' ? cached : live;
      return obj === null
        ? Promise.reject(newNotFound({ group: '', resource: 'serviceaccounts' }, name))
        : Promise.resolve(obj);
    },
  };
}

describe('listerGet', () => {
  it("answers from the cache's shared state when it has the object", async () => {
    const g = getter({ metadata: { name: 'cached' } }, { metadata: { name: 'live' } });
    assert.equal((await listerGet(g, internalContext(), 'x')).metadata?.name, 'cached');
    assert.deepEqual(g.reads, [{ resourceVersion: '0', readOnly: true }]);
  });

  it('reads storage when the cache has nothing yet, and passes NotFound on when neither has it', async () => {
    const g = getter(null, { metadata: { name: 'live' } });
    assert.equal((await listerGet(g, internalContext(), 'x')).metadata?.name, 'live');
    assert.deepEqual(g.reads, [{ resourceVersion: '0', readOnly: true }, { readOnly: true }]);
    await assert.rejects(listerGet(getter(null, null), internalContext(), 'x'), /not found/);
  });
});
