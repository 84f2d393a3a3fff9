// A server's lifecycle in a test: stop() ends the watches it serves at once, waits for a request
// actually in flight, and leaves no handle behind (listeners, sockets, timers of storage and
// controllers).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startCapstan, type CapstanServer } from '../../src/index.js';

const token = (s: CapstanServer): string => s.kubeConfig.users[0]?.user.token ?? '';

/** The process's handles, after the turn in which a finished fs call still counts as active. */
async function activeResources(): Promise<string[]> {
  await nextTurn();
  await nextTurn();
  return process.getActiveResourcesInfo().sort();
}

describe('server lifecycle', () => {
  it('leaves nothing in the process once stopped', async () => {
    const before = await activeResources();
    const server = await startCapstan({ scheme: 'http' });
    assert.notDeepEqual(await activeResources(), before, 'a running server holds its listener');
    await server.stop();
    assert.deepEqual(await activeResources(), before);
  });

  it('ends the watches it serves and their connections', async () => {
    const before = await activeResources();
    const server = await startCapstan({ scheme: 'http' });
    const headers = { authorization: `Bearer ${token(server)}`, connection: 'close' };
    const watch = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?watch=true`, { headers });
    assert.equal(watch.status, 200);
    const events = watch.text();
    await server.stop();
    // The watch's stream has ended (awaiting it would hang otherwise), with no event in it.
    assert.equal(await events, '');
    assert.deepEqual(await activeResources(), before);
  });

  it('lets a request in flight finish before it stops', { timeout: 10_000 }, async () => {
    const server = await startCapstan({ scheme: 'http' });
    const headers = { authorization: `Bearer ${token(server)}`, connection: 'close' };
    // The rule holds the request 300 ms; once it has been used, the request is in flight.
    server.faults.add({ verb: 'list', resource: 'namespaces', latencyMs: 300, times: 1 });
    const list = fetch(`${server.url}/api/v1/namespaces`, { headers });
    while (server.faults.list().length > 0) await nextTurn();
    const stopped = server.stop();
    const listed = await list;
    assert.equal(listed.status, 200);
    assert.match(await listed.text(), /"kind":"NamespaceList"/);
    await stopped;
  });
});
