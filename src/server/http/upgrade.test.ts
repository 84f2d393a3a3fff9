// Upgrade requests reach the listener's handler like any request: answered on their socket (and the
// connection closed after), or taken over by a handler that switches protocols.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ServingListener } from './serving-listener.js';
import { hijack, upgradeConnection } from './upgrade.js';

describe('upgrade requests', () => {
  let listener: ServingListener;
  before(async () => {
    listener = await ServingListener.listen({ bindAddress: '127.0.0.1', port: 0 }, (req, res) => {
      const conn = upgradeConnection(req);
      if (req.url === '/switch' && conn !== undefined) {
        const { socket } = hijack(req, res);
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
        socket.pipe(socket);
        return;
      }
      res.setHeader('Content-Type', 'text/plain');
      res.end(`${conn === undefined ? 'plain' : 'upgrade'} ${req.method ?? ''} ${req.url ?? ''}\n`);
    });
  });
  after(() => listener.close());

  const send = async (path: string, method = 'GET'): Promise<[IncomingMessage, Duplex | undefined]> => {
    const out = request(`${listener.url}${path}`, {
      method,
      headers: { connection: 'Upgrade', upgrade: 'echo' },
    });
    out.end();
    return (await Promise.race([once(out, 'upgrade'), once(out, 'response')])) as [
      IncomingMessage,
      Duplex | undefined,
    ];
  };

  it('are answered by the handler on their own connection, which then closes', async () => {
    const [res, socket] = await send('/api/v1/namespaces/x/pods/p/exec', 'POST');
    assert.equal(socket, undefined);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.connection, 'close');
    let body = '';
    for await (const chunk of res) body += String(chunk);
    assert.equal(body, 'upgrade POST /api/v1/namespaces/x/pods/p/exec\n');
  });

  it('can be taken over by a handler that switches protocols', async () => {
    const [res, socket] = await send('/switch');
    assert.equal(res.statusCode, 101);
    assert.ok(socket);
    socket.write('ping');
    assert.equal(String((await once(socket, 'data'))[0]), 'ping');
    socket.destroy();
  });

  it('leave ordinary requests as they were', async () => {
    const res = await new Promise<IncomingMessage>((resolve) => request(`${listener.url}/x`, resolve).end());
    let body = '';
    for await (const chunk of res) body += String(chunk);
    assert.equal(body, 'plain GET /x\n');
  });
});
