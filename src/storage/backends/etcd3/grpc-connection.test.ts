// A session destroyed between its socket's connect and the session's 'connect' event (a dial timeout
// or a close racing the handshake, as a network partition makes happen) must not throw out of the
// event loop.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { Connection } from './grpc-connection.js';

let server: http2.Http2Server | undefined;
let port = 0;

before(async () => {
  server = http2.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server?.close();
  if (server !== undefined) await once(server, 'close');
});

it('a session destroyed as its socket connects is gone, and its late connect event is ignored', async () => {
  const gone: boolean[] = [];
  const conn = new Connection(
    { url: `http://127.0.0.1:${port}`, secure: false },
    {
      tls: undefined,
      dialTimeoutMs: 5000,
      keepaliveMs: 0,
      keepaliveTimeoutMs: 0,
      onGone: (_c, failedToConnect) => gone.push(failedToConnect),
    },
  );
  // Runs after http2's own socket 'connect' listener, before the session's 'connect' (a tick later).
  conn.session.socket.once('connect', () => {
    conn.session.destroy();
  });
  const errors: unknown[] = [];
  const onError = (err: unknown): void => {
    errors.push(err);
  };
  process.on('uncaughtException', onError);
  try {
    await once(conn.session, 'close');
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.removeListener('uncaughtException', onError);
  }
  assert.deepEqual(errors, []);
  assert.equal(conn.connected, false);
  assert.equal(conn.usable, false);
  assert.deepEqual(gone, [true]);
});
