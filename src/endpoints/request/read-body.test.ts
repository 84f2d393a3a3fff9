import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../machinery/errors/index.js';
import { readBody } from './read-body.js';

describe('readBody', () => {
  let server: http.Server;
  let port = 0;
  // Each request's outcome, by its path.
  const outcomes = new Map<string, Promise<Buffer>>();
  const arrived = new Map<string, () => void>();

  before(async () => {
    server = http.createServer((req, res) => {
      const path = req.url ?? '';
      const read = (): void => {
        if (path === '/same') {
          let first: Buffer | undefined;
          req.on('data', (c: Buffer) => (first ??= c));
          readBody(req, 1024).then(
            (b) => res.end(b === first ? 'the chunk' : 'a copy'),
            () => res.end(),
          );
          return;
        }
        const body = readBody(req, 1024);
        outcomes.set(path, body);
        arrived.get(path)?.();
        body.then(
          (b) => res.end(b),
          () => res.end(),
        );
      };
      // `/late` starts reading only once its client has gone, as a request waiting for its turn does.
      if (path === '/late') res.once('close', read);
      else read();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.close();
  });

  /** Settles with how the server's readBody ended, once the server has called it for `path`. */
  const outcome = (path: string): Promise<{ body: Promise<Buffer> }> =>
    new Promise((resolve) => {
      arrived.set(path, () => {
        resolve({ body: outcomes.get(path) as Promise<Buffer> });
      });
    });

  it('reads a whole body', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/whole`, { method: 'POST', body: 'hello' });
    assert.equal(await res.text(), 'hello');
  });

  it('hands back a body that came in one chunk as that chunk, without copying it', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/same`, { method: 'PUT', body: '{"kind":"Pod"}' });
    assert.equal(await res.text(), 'the chunk');
  });

  it('joins a body that came in several chunks', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const reply = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.endsWith('0123456789')) resolve(text);
      });
    });
    const started = outcome('/parts');
    socket.write('POST /parts HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234');
    // The rest goes once the server reads the body: a later read, a second chunk.
    await started;
    socket.write('56789');
    assert.match(await reply, /\r\n\r\n0123456789$/);
    socket.destroy();
  });

  for (const [path, sent] of [
    ['/late', 'all of the body, read only after the client left'],
    ['/partial', 'half of the body'],
  ] as const) {
    it(`refuses, not hangs, when the client closes the connection first (${sent})`, async () => {
      const started = outcome(path);
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const body = path === '/late' ? '0123456789' : '01234';
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n${body}`);
      // /partial's server reads at once: the client leaves while the body is half sent.
      if (path === '/partial') await started;
      socket.destroy();
      const err = await (
        await started
      ).body.then(
        () => assert.fail('the body was read'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof Error);
      if (path === '/late') {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, 400);
        assert.match(err.message, /closed the connection before the request body was read/);
      }
    });
  }
});
