// A streamed list to a client that reads slowly: the writer waits for many drains on one response
// and must not pile up listeners while it does, whether the client reads to the end or goes away.
// Then the bytes of lists whose items span the response's pieces, with and without their type members.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { RequestURL } from '../request/request-url.js';
import type { Exchange } from './exchange.js';
import { WarningRecorder } from './warnings.js';
import { writeEncodedList, type EncodedListBody } from './write-encoded.js';
import { withoutTypeMeta } from '../../machinery/json/without-type-meta.js';

const item = Buffer.from(JSON.stringify({ kind: 'ConfigMap', data: { k: 'x'.repeat(4000) } }));
const items = Array.from({ length: 1500 }, () => item);

/** A loopback server that hands each request to `serve` as the exchange writeEncodedList takes. */
async function listServer(
  serve: (ex: Exchange) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    serve({
      req,
      res,
      url: {} as RequestURL,
      warnings: new WarningRecorder(),
      logError: () => undefined,
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}

describe('writeEncodedList to a slow client', () => {
  let server: { port: number; close: () => Promise<void> };
  const most = { close: 0, error: 0 };
  const done: Promise<void>[] = [];

  before(async () => {
    server = await listServer((ex) => {
      const watch = setInterval(() => {
        most.close = Math.max(most.close, ex.res.listenerCount('close'));
        most.error = Math.max(most.error, ex.res.listenerCount('error'));
      }, 1);
      const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items };
      done.push(
        writeEncodedList(ex, 200, list).finally(() => {
          clearInterval(watch);
        }),
      );
    });
  });
  after(() => server.close());

  const get = async (encoding: string): Promise<IncomingMessage> => {
    const req = request({ port: server.port, path: '/', headers: { 'accept-encoding': encoding } });
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
      if (encoding === 'identity') {
        // Past what is measured first: chunked, as kube streams a long list.
        assert.equal(res.headers['content-length'], undefined);
        assert.equal(res.headers['transfer-encoding'], 'chunked');
        assert.ok(n > items.length * item.length);
      }
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

describe("writeEncodedList's bytes", () => {
  let server: { port: number; close: () => Promise<void> };
  let list: EncodedListBody = { kind: 'List', apiVersion: 'v1', metadata: {}, items: [] };

  before(async () => {
    server = await listServer((ex) => {
      void writeEncodedList(ex, 200, list);
    });
  });
  after(() => server.close());

  const body = async (): Promise<{ text: string; contentLength: number; chunked: boolean }> => {
    const req = request({ port: server.port, path: '/', headers: { 'accept-encoding': 'identity' } });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return {
      text: Buffer.concat(chunks).toString(),
      contentLength: Number(res.headers['content-length']),
      chunked: res.headers['transfer-encoding'] === 'chunked',
    };
  };

  const json = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));
  const big = 'x'.repeat(300 * 1024);
  // Type members at the start, at the end, one at each; spaced JSON (the scanned path); none at all;
  // one item longer than a whole piece of the response.
  const shapes = [
    json({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' }, data: { k: 'v'.repeat(900) } }),
    json({ metadata: { name: 'b' }, data: { k: 'w'.repeat(700) }, apiVersion: 'v1', kind: 'ConfigMap' }),
    json({ apiVersion: 'v1', metadata: { name: 'c' }, data: {}, kind: 'ConfigMap' }),
    Buffer.from('{ "kind" : "ConfigMap" , "metadata" : {"name":"d"} }'),
    json({ metadata: { name: 'e' } }),
  ];
  const items = [
    ...Array.from({ length: 600 }, (_, i) => shapes[i % shapes.length] as Buffer),
    json({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'big' }, data: { k: big } }),
    shapes[0] as Buffer,
  ];

  it('writes a long built-in kind list across pieces, chunked, without the items type members', async () => {
    list = {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '9' },
      items,
      omitItemTypeMeta: true,
    };
    const { text, chunked } = await body();
    assert.ok(chunked);
    const want = `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[${items
      .map((item) => Buffer.concat(withoutTypeMeta(item)).toString())
      .join(',')}]}\n`;
    assert.equal(text, want);
    const parsed = JSON.parse(text) as { items: { kind?: string; metadata: { name: string } }[] };
    assert.equal(parsed.items.length, items.length);
    assert.ok(parsed.items.every((i) => i.kind === undefined));
    assert.equal(parsed.items.at(-2)?.metadata.name, 'big');
  });

  it('writes the items as they are for a list that keeps their type members', async () => {
    list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items };
    const { text, chunked } = await body();
    assert.ok(chunked);
    assert.equal(
      text,
      `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[${items.join(',')}]}\n`,
    );
  });

  it('measures a short list first: its Content-Length is exact', async () => {
    const short = [...Array.from({ length: 300 }, (_, i) => shapes[i % shapes.length] as Buffer)];
    for (const some of [[], [shapes[1] as Buffer], short]) {
      list = {
        kind: 'ConfigMapList',
        apiVersion: 'v1',
        metadata: { resourceVersion: '9' },
        items: some,
        omitItemTypeMeta: true,
      };
      const { text, contentLength, chunked } = await body();
      assert.ok(!chunked);
      assert.equal(contentLength, Buffer.byteLength(text));
      assert.equal(
        text,
        `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[${some
          .map((item) => Buffer.concat(withoutTypeMeta(item)).toString())
          .join(',')}]}\n`,
      );
    }
  });
});
