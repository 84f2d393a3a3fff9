import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { requestInfoFor } from '../../endpoints/request/request-info.js';
import { parseRequestURL } from '../../endpoints/request/request-url.js';
import { FilterScope, thenFinally, type Handler } from './filter-scope.js';

const req = new IncomingMessage(new Socket());
req.method = 'GET';
const url = parseRequestURL('/api/v1/namespaces/default/configmaps/a');
const scope = new FilterScope({
  req,
  res: new ServerResponse(req),
  url,
  info: requestInfoFor(req, url),
  longRunning: false,
});

describe('thenFinally', () => {
  it('runs done once after the next handler resolves, and resolves with it', async () => {
    const order: string[] = [];
    const next: Handler = async () => {
      await Promise.resolve();
      order.push('next');
    };
    await thenFinally(next, scope, () => order.push('done'));
    assert.deepEqual(order, ['next', 'done']);
  });

  it('runs done once after the next handler rejects, and rejects with its reason', async () => {
    let done = 0;
    const reason = new Error('refused');
    await assert.rejects(
      thenFinally(
        () => Promise.reject(reason),
        scope,
        () => done++,
      ),
      (err) => err === reason,
    );
    assert.equal(done, 1);
  });

  it('runs done and throws on when the next handler throws synchronously', () => {
    let done = 0;
    const reason = new Error('thrown');
    const next: Handler = () => {
      throw reason;
    };
    assert.throws(
      () => thenFinally(next, scope, () => done++),
      (err) => err === reason,
    );
    assert.equal(done, 1);
  });

  it('does not run done before the next handler settles', async () => {
    let settle: () => void = () => undefined;
    let done = 0;
    const p = thenFinally(
      () => new Promise<void>((resolve) => (settle = resolve)),
      scope,
      () => done++,
    );
    await Promise.resolve();
    assert.equal(done, 0);
    settle();
    await p;
    assert.equal(done, 1);
  });
});
