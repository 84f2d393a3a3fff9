import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WatchEvent } from '../../storage/interfaces.js';
import { lazyWatchEvent } from '../../storage/cacher/watch-cache-event.js';
import { attachServedJSON, locateResourceVersion } from '../../storage/served-json.js';
import { jsonFrame } from './watch.js';

test('a change of the watch cache is framed once however many watchers send it; other events each time', () => {
  const json = Buffer.from(
    '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"7"}}',
  );
  let read = 0;
  const toString = json.toString.bind(json);
  json.toString = (...args: Parameters<Buffer['toString']>): string => {
    read++;
    return toString(...args);
  };
  const served = locateResourceVersion(json);
  assert.ok(served !== null);
  // Counted from here: the reads that make frames.
  read = 0;
  const shared = lazyWatchEvent('ADDED', { served }, true);
  const frames = [jsonFrame(shared), jsonFrame(shared), jsonFrame(shared)];
  assert.equal(read, 1);
  assert.ok(frames.every((f) => f === `{"type":"ADDED","object":${toString()}}\n`));
  // Another event of the cache is another change: framed on its own.
  jsonFrame(lazyWatchEvent('MODIFIED', { served }, true));
  assert.equal(read, 2);

  // An event of storage itself goes to one watcher: serialized each time it is sent.
  let serialized = 0;
  const object = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    get metadata(): { name: string } {
      serialized++;
      return { name: 'a' };
    },
  };
  const own: WatchEvent = { type: 'ADDED', object };
  // A built-in kind in Go's member order, with the zero creationTimestamp Go writes as null.
  assert.equal(
    jsonFrame(own),
    '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","creationTimestamp":null}}}\n',
  );
  const once = serialized;
  jsonFrame(own);
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
