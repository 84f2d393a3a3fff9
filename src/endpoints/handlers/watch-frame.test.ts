import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WatchEvent } from '../../storage/interfaces.js';
import { attachServedJSON } from '../../storage/served-json.js';
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
  const frames = [jsonFrame(shared)];
  const once = serialized;
  assert.ok(once > 0);
  frames.push(jsonFrame(shared), jsonFrame(shared));
  assert.equal(serialized, once);
  // A built-in kind in Go's member order, with the zero creationTimestamp Go writes as null.
  assert.equal(
    frames[0],
    '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","creationTimestamp":null}}}\n',
  );
  assert.ok(frames.every((f) => f === frames[0]));
  // Another event object is another change: it is serialized on its own.
  jsonFrame({ type: 'MODIFIED', object });
  assert.equal(serialized, 2 * once);
});

test('an event carrying its served JSON (the watch cache’s) is written from it, its object not decoded', () => {
  const json = Buffer.from(
    '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"7","creationTimestamp":null}}',
  );
  const event = {
    type: 'ADDED',
    get object(): never {
      throw new Error('decoded');
    },
  } as unknown as WatchEvent;
  attachServedJSON(event, json);
  assert.equal(jsonFrame(event), `{"type":"ADDED","object":${json.toString()}}\n`);
});

test("an ERROR event's Status goes out in Go's member order without empty members", () => {
  // As storage may leave it: details extended after the Status was made, an empty group and cause field.
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Timeout: Too large resource version: 1000, current: 19',
    reason: 'Timeout',
    code: 504,
    details: {
      retryAfterSeconds: 1,
      group: '',
      causes: [{ field: '', message: 'Too large resource version', reason: 'ResourceVersionTooLarge' }],
    },
  } as const;
  const event = { type: 'ERROR', object: status } as unknown as WatchEvent;
  assert.equal(
    jsonFrame(event),
    '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
      '"message":"Timeout: Too large resource version: 1000, current: 19","reason":"Timeout",' +
      '"details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],' +
      '"retryAfterSeconds":1},"code":504}}\n',
  );
});
