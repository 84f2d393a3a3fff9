// The object each try of a PUT works on: the body itself first, a fresh decode for a retry, so
// what one try changed (managed fields, admission's mutations) never reaches the next.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { defaultUpdatedObjectInfo } from './update.js';

const ctx = {} as Parameters<ReturnType<typeof defaultUpdatedObjectInfo>['updatedObject']>[0];
const body = (): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', uid: 'u-1', labels: { a: '1' } },
});

describe('defaultUpdatedObjectInfo', () => {
  it('hands the body to the first try and a fresh decode to each retry', async () => {
    const first = body();
    let decodes = 0;
    const info = defaultUpdatedObjectInfo(first, () => {
      decodes++;
      return body();
    });
    const tried = await info.updatedObject(ctx, null);
    assert.equal(tried, first);
    assert.equal(decodes, 0);
    (tried.metadata ??= {}).labels = { changed: 'by the first try' };
    tried.metadata.uid = 'u-2';
    const retried = await info.updatedObject(ctx, null);
    assert.equal(decodes, 1);
    assert.notEqual(retried, first);
    assert.deepEqual(retried.metadata?.labels, { a: '1' });
    assert.deepEqual(info.preconditions(), { uid: 'u-1' }, 'the body’s uid, whatever a try set');
  });

  it('has no uid precondition for a body without one', () => {
    const info = defaultUpdatedObjectInfo(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      body,
    );
    assert.equal(info.preconditions(), undefined);
  });
});
