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
});
