import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WatchEvent } from '../../storage/interfaces.js';
import { jsonFrame } from './watch.js';

test('a watch event is serialized once however many watchers send it', () => {
  let serialized = 0;
  const object = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    get metadata(): { name: string } {
      serialized++;
      return { name: 'a' };
    },
  };
  const shared: WatchEvent = { type: 'ADDED', object };
  const frames = [jsonFrame(shared), jsonFrame(shared), jsonFrame(shared)];
  assert.equal(serialized, 1);
  assert.equal(
    frames[0],
    '{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}}\n',
  );
  assert.ok(frames.every((f) => f === frames[0]));
  // Another event object is another change: it is serialized on its own.
  jsonFrame({ type: 'MODIFIED', object });
  assert.equal(serialized, 2);
});
