import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { Lister, Watcher } from '../../registry/rest/capabilities.js';
import { attachServedJSON } from '../../storage/served-json.js';
import { WatchChan, type WatchEvent } from '../../storage/watch-chan.js';
import { runListWatch } from './list-watch.js';

function event(name: string, json: string | undefined): WatchEvent {
  const ev: WatchEvent = { type: 'ADDED', object: { metadata: { name } } };
  if (json !== undefined) attachServedJSON(ev, Buffer.from(json));
  return ev;
}

describe('runListWatch', () => {
  it('skips events whose JSON does not mention the text, and hands on the rest', async () => {
    const chan = new WatchChan();
    const source = {
      newList: () => ({ metadata: {}, items: [] }),
      list: () => Promise.resolve({ metadata: { resourceVersion: '1' }, items: [] }),
      convertToTable: () => {
        throw new Error('unused');
      },
      watch: () => Promise.resolve(chan),
    } as unknown as Lister & Watcher;
    const seen: string[] = [];
    const abort = new AbortController();
    const running = runListWatch({
      source,
      signal: abort.signal,
      mentions: Buffer.from('"persistentVolumeClaim"'),
      onEvent: (_type, obj: KubeObject) => {
        seen.push(obj.metadata?.name ?? '');
        if (seen.length === 2) abort.abort();
      },
      onError: () => undefined,
    });
    chan.push(event('no-claim', '{"spec":{"volumes":[{"emptyDir":{}}]}}'));
    chan.push(event('claim', '{"spec":{"volumes":[{"persistentVolumeClaim":{"claimName":"c"}}]}}'));
    chan.push(event('unknown', undefined));
    await running;
    assert.deepEqual(seen, ['claim', 'unknown']);
  });

  it('skips events that `concerns` refuses, given their type and JSON, and events without JSON are handed on', async () => {
    const chan = new WatchChan();
    const source = {
      newList: () => ({ metadata: {}, items: [] }),
      list: () => Promise.resolve({ metadata: { resourceVersion: '1' }, items: [] }),
      convertToTable: () => {
        throw new Error('unused');
      },
      watch: () => Promise.resolve(chan),
    } as unknown as Lister & Watcher;
    const seen: string[] = [];
    const asked: string[] = [];
    const abort = new AbortController();
    const running = runListWatch({
      source,
      signal: abort.signal,
      concerns: (type, json) => {
        asked.push(`${type} ${json.toString()}`);
        return type === 'DELETED' || json.includes('"wanted"');
      },
      onEvent: (type, obj: KubeObject) => {
        seen.push(`${type} ${obj.metadata?.name ?? ''}`);
        if (seen.length === 3) abort.abort();
      },
      onError: () => undefined,
    });
    chan.push(event('added', '{"a":1}'));
    chan.push(event('wanted', '{"wanted":1}'));
    chan.push({ type: 'DELETED', object: { metadata: { name: 'gone' } } });
    const deleted: WatchEvent = { type: 'DELETED', object: { metadata: { name: 'deleted' } } };
    attachServedJSON(deleted, Buffer.from('{"d":1}'));
    chan.push(deleted);
    await running;
    assert.deepEqual(seen, ['ADDED wanted', 'DELETED gone', 'DELETED deleted']);
    assert.deepEqual(asked, ['ADDED {"a":1}', 'ADDED {"wanted":1}', 'DELETED {"d":1}']);
  });
});

describe('runListWatch with the served JSON', () => {
  it('hands lists and events over as JSON, undecoded, and events without JSON decoded', async () => {
    const chan = new WatchChan();
    const decoded: string[] = [];
    const source = {
      newList: () => ({ metadata: {}, items: [] }),
      list: () => Promise.reject(new Error('the encoded list is used')),
      listEncoded: () =>
        Promise.resolve({
          kind: 'List',
          apiVersion: 'v1',
          metadata: { resourceVersion: '1' },
          items: [Buffer.from('{"a":1}')],
        }),
      convertToTable: () => {
        throw new Error('unused');
      },
      watch: () => Promise.resolve(chan),
    } as unknown as Lister & Watcher;
    const lists: string[][] = [];
    const jsons: string[] = [];
    const abort = new AbortController();
    const running = runListWatch({
      source,
      signal: abort.signal,
      onEncodedList: (items) => lists.push(items.map((b) => b.toString())),
      onServedJSON: (type, json) => {
        jsons.push(`${type} ${json.toString()}`);
      },
      onEvent: (type, obj: KubeObject) => {
        decoded.push(`${type} ${obj.metadata?.name ?? ''}`);
        abort.abort();
      },
      onError: () => undefined,
    });
    const lazy: WatchEvent = {
      type: 'MODIFIED',
      get object(): KubeObject {
        throw new Error('decoded');
      },
    };
    attachServedJSON(lazy, Buffer.from('{"b":2}'));
    chan.push(lazy);
    chan.push(event('plain', undefined));
    await running;
    assert.deepEqual(lists, [['{"a":1}']]);
    assert.deepEqual(jsons, ['MODIFIED {"b":2}']);
    assert.deepEqual(decoded, ['ADDED plain']);
  });
});
