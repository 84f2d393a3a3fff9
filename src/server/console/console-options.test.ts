import { it } from 'node:test';
import assert from 'node:assert/strict';
import { consoleEnabled } from './console-options.js';

it('is on by default for the embedded store only, and --console decides when given', () => {
  const at = (backend: string, console?: boolean): boolean =>
    consoleEnabled({ console, storage: { backend } });
  assert.equal(at('sqlite'), true);
  assert.equal(at('memory'), true);
  assert.equal(at('etcd3'), false);
  assert.equal(at('sqlite', false), false);
  assert.equal(at('etcd3', true), true);
});
