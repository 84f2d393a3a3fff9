import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import { scaleOptions } from './scale-paths.js';

describe('custom resource scale paths', () => {
  it('a path through __proto__ or constructor reads and writes ordinary members', () => {
    const scale = scaleOptions({
      specReplicasPath: '.spec.__proto__.replicas',
      statusReplicasPath: '.status.constructor',
    });
    const obj = JSON.parse('{"metadata":{"name":"s"},"spec":{}}') as KubeObject;
    scale.applyScale(obj, 3);
    assert.equal(({} as { replicas?: unknown }).replicas, undefined);
    assert.equal(JSON.stringify(obj), '{"metadata":{"name":"s"},"spec":{"__proto__":{"replicas":3}}}');
    assert.deepEqual(scale.toScale(obj), { spec: { replicas: 3 }, status: { replicas: 0 } });
    assert.deepEqual(scale.toScale(JSON.parse('{"spec":{}}') as KubeObject).spec, { replicas: 0 });
  });
});
