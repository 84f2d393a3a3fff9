import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, it } from 'node:test';
import { DelayProxy } from './delay-proxy.js';

const upstreamSockets = new Set<Socket>();
// An upstream that answers each chunk with its own bytes.
const echo = createServer((s) => {
  upstreamSockets.add(s);
  s.pipe(s);
});
let proxy: DelayProxy | undefined;

before(async () => {
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  proxy = await DelayProxy.start((echo.address() as AddressInfo).port, 80);
});

after(async () => {
  await proxy?.close();
  for (const s of upstreamSockets) s.destroy();
  await new Promise((resolve) => echo.close(resolve));
});

it('passes the upstream bytes back whole and in order, each at least the delay late', async () => {
  const client = connect((proxy as DelayProxy).port, '127.0.0.1');
  try {
    await once(client, 'connect');
    const sentAt = Date.now();
    let got = '';
    let firstAt = 0;
    client.setEncoding('utf8');
    client.on('data', (d: string) => {
      firstAt ||= Date.now();
      got += d;
    });
    const parts = ['one,', 'two,', 'three,', 'four'];
    for (const p of parts) client.write(p);
    while (got.length < parts.join('').length) await once(client, 'data');
    assert.equal(got, parts.join(''));
    assert.ok(firstAt - sentAt >= 75, `the first bytes came back after ${firstAt - sentAt} ms`);
  } finally {
    client.destroy();
  }
});
