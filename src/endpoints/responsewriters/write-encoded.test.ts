// A streamed list to a client that reads slowly: the writer waits for many drains on one response
// and must not pile up listeners while it does, whether the client reads to the end or goes away.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ApiRequest, ApiResponse } from '../http-types.js';
import type { RequestURL } from '../request/request-url.js';
import { WarningRecorder } from './warnings.js';
import { writeEncodedList } from './write-encoded.js';

const item = Buffer.from(JSON.stringify({ kind: 'ConfigMap', data: { k: 'x'.repeat(4000) } }));
const items = Array.from({ length: 1500 }, () => item);

describe('writeEncodedList to a slow client', () => {
  let server: Server;
  let port = 0;
  const most = { close: 0, error: 0 };
  const done: Promise<void>[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const watch = setInterval(() => {
        most.close = Math.max(most.close, res.listenerCount('close'));
        most.error = Math.max(most.error, res.listenerCount('error'));
      }, 1);
      const ex = {
        req: req as ApiRequest,
        res: res as ApiResponse,
        url: {} as RequestURL,
        warnings: new WarningRecorder(),
        logError: () => undefined,
      };
      const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items };
      done.push(
        writeEncodedList(ex, 200, list).finally(() => {
          clearInterval(watch);
        }),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.close();
    await once(server, 'close');
  });

  const get = async (encoding: string): Promise<IncomingMessage> => {
    const req = request({ port, path: '/', headers: { 'accept-encoding': encoding } });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    return res;
  };
  const slowly = async (res: IncomingMessage, stopAfter = Infinity): Promise<number> => {
    let n = 0;
    for await (const chunk of res) {
      n += (chunk as Buffer).length;
      if (n > stopAfter) {
        res.destroy();
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    return n;
  };

  it('writes the whole list with a handful of listeners, plain and gzipped', async () => {
    for (const encoding of ['identity', 'gzip']) {
      most.close = 0;
      most.error = 0;
      const res = await get(encoding);
      const n = await slowly(res);
      await Promise.all(done);
      assert.ok(n > 0);
      if (encoding === 'identity') assert.equal(n, Number(res.headers['content-length']));
      assert.ok(most.close <= 3, `${most.close} close listeners`);
      assert.ok(most.error <= 3, `${most.error} error listeners`);
    }
  });

  it('stops writing when the client goes away mid-list', async () => {
    const res = await get('identity');
    const n = await slowly(res, 1_000_000);
    await Promise.all(done);
    assert.ok(n < items.length * item.length);
  });
});
