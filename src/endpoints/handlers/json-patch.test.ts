// The JSON patch mechanism treats keys named like Object.prototype's members (`constructor`,
// `toString`, `__proto__`, `hasOwnProperty`) as kube's jsonpatch does: map keys like any other.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { jsonPatchMechanism } from './json-patch.js';

const current = JSON.parse(
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},' +
    '"data":{"__proto__":"p","hasOwnProperty":"h","~\\u0000x":"e"}}',
) as KubeObject;

const patch = (ops: unknown[]): Record<string, unknown> => {
  const prepared = jsonPatchMechanism.prepare({
    patch: Buffer.from(JSON.stringify(ops)),
    fieldValidation: 'Strict',
  });
  return JSON.parse(jsonPatchMechanism.apply(prepared, current)) as Record<string, unknown>;
};

const unprocessable = { message: 'the server rejected our request due to an error in our request' };

describe('JSON patch: keys named like Object.prototype members', () => {
  it('adds, replaces, tests, copies, moves and removes them as map keys', () => {
    const out = patch([
      { op: 'add', path: '/data/constructor', value: 'c' },
      { op: 'replace', path: '/data/__proto__', value: 'q' },
      { op: 'test', path: '/data/__proto__', value: 'q' },
      {
        op: 'test',
        path: '/data',
        value: JSON.parse(
          '{"__proto__":"q","constructor":"c","hasOwnProperty":"h","~\\u0000x":"e"}',
        ) as unknown,
      },
      { op: 'copy', from: '/data/constructor', path: '/data/toString' },
      { op: 'move', from: '/data/hasOwnProperty', path: '/data/valueOf' },
      { op: 'remove', path: '/data/~0\u0000x' },
      { op: 'add', path: '/metadata/labels', value: JSON.parse('{"__proto__":"l"}') as unknown },
    ]);
    assert.equal(
      JSON.stringify(out['data']),
      '{"__proto__":"q","constructor":"c","toString":"c","valueOf":"h"}',
    );
    assert.equal(JSON.stringify((out['metadata'] as Record<string, unknown>)['labels']), '{"__proto__":"l"}');
    assert.deepEqual(Object.keys(Object.prototype), []);
  });

  it('adds a __proto__ key where there was none, and removes it', () => {
    const plain = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { a: '1' },
    } as KubeObject;
    const prepared = jsonPatchMechanism.prepare({
      patch: Buffer.from('[{"op":"add","path":"/data/__proto__","value":{"polluted":"yes"}}]'),
      fieldValidation: 'Strict',
    });
    const added = JSON.parse(jsonPatchMechanism.apply(prepared, plain)) as KubeObject;
    // evanphx writes an object it walked into as a Go map: keys sorted ('_' before 'a').
    assert.equal(JSON.stringify(added['data']), '{"__proto__":{"polluted":"yes"},"a":"1"}');
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    const removed = patch([{ op: 'remove', path: '/data/__proto__' }]);
    assert.equal(JSON.stringify(removed['data']), '{"hasOwnProperty":"h","~\\u0000x":"e"}');
  });

  it('refuses to remove, move or walk into a key the object lacks, as for any other name', () => {
    assert.throws(() => patch([{ op: 'remove', path: '/data/toString' }]), unprocessable);
    assert.throws(() => patch([{ op: 'move', from: '/data/constructor', path: '/data/x' }]), unprocessable);
    // evanphx's copy reads a missing map key as nil and copies it: null, not Object.prototype's member.
    const copied = patch([{ op: 'copy', from: '/data/valueOf', path: '/data/x' }]);
    assert.equal((copied['data'] as Record<string, unknown>)['x'], null);
    assert.throws(() => patch([{ op: 'add', path: '/data/constructor/x', value: 1 }]), unprocessable);
    assert.throws(() => patch([{ op: 'add', path: '/metadata/__proto__/x', value: 1 }]), unprocessable);
    assert.throws(() => patch([{ op: 'test', path: '/data/constructor', value: 'c' }]), unprocessable);
  });
});
