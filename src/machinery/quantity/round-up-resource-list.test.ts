import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundUpResourceList } from './round-up-resource-list.js';

describe('roundUpResourceList (SetDefaults_ResourceList)', () => {
  it('rounds sub-milli quantities up, away from zero, and writes them canonically', () => {
    const list = {
      cpu: '100u',
      memory: '1n',
      'example.com/a': '1001u',
      'example.com/e': '1.0001',
      'example.com/b': '-1n',
      'example.com/c': '1e-4',
      'example.com/d': '1.0000001Ki',
    };
    roundUpResourceList(list);
    assert.deepEqual(list, {
      cpu: '1m',
      memory: '1m',
      'example.com/a': '2m',
      'example.com/e': '1001m',
      'example.com/b': '-1m',
      'example.com/c': '1e-3',
      'example.com/d': '1024001m',
    });
  });

  it('keeps quantities already at milli scale or coarser as they are written', () => {
    const list = { cpu: '250m', memory: '128Mi', storage: '1G', pods: '0', 'example.com/x': '1e3' };
    const before = { ...list };
    roundUpResourceList(list);
    assert.deepEqual(list, before);
    roundUpResourceList(undefined);
  });
});
