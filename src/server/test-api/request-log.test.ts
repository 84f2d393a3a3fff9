import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestLog, type RequestRecord } from './request-log.js';

const record = (name: string, verb = 'get'): RequestRecord => ({
  user: 'u',
  groups: [],
  verb,
  method: 'GET',
  path: `/api/v1/namespaces/default/configmaps/${name}`,
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'configmaps',
  subresource: '',
  namespace: 'default',
  name,
  fieldManager: '',
  dryRun: false,
  query: {},
  userAgent: '',
  contentType: '',
  code: 200,
  latencyMs: 1,
  receivedAt: 0,
});

describe('RequestLog', () => {
  it('keeps the newest records up to its capacity, oldest first', () => {
    const log = new RequestLog({ capacity: 3 });
    for (const n of ['a', 'b', 'c', 'd', 'e']) log.add(record(n));
    assert.deepEqual(
      log.calls().map((r) => r.name),
      ['c', 'd', 'e'],
    );
  });

  it('matches every field of a filter', () => {
    const log = new RequestLog();
    log.add(record('a', 'get'));
    log.add(record('a', 'delete'));
    log.add(record('b', 'delete'));
    assert.deepEqual(
      log.calls({ verb: 'delete' }).map((r) => r.name),
      ['a', 'b'],
    );
    assert.deepEqual(
      log.calls({ verb: 'delete', name: 'a' }).map((r) => r.verb),
      ['delete'],
    );
    log.clear();
    assert.deepEqual(log.calls(), []);
  });

  it('refuses a capacity below one', () => {
    assert.throws(() => new RequestLog({ capacity: 0 }), RangeError);
  });
});
