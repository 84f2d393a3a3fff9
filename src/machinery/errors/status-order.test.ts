import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Status } from '../../api/meta.js';
import { goJSONText } from '../json/go-json-text.js';
import { newNotFound, newTimeoutError } from './constructors.js';
import { orderedStatus } from './status-order.js';

describe('orderedStatus', () => {
  it('puts details before code and leaves the core group out', () => {
    assert.equal(
      goJSONText(newNotFound({ group: '', resource: 'pods' }, 'p').status),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"p\\" not found",' +
        '"reason":"NotFound","details":{"name":"p","kind":"pods"},"code":404}',
    );
  });

  it('writes retryAfterSeconds last in details', () => {
    assert.equal(
      goJSONText(newTimeoutError('too slow', 2).status),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: too slow",' +
        '"reason":"Timeout","details":{"retryAfterSeconds":2},"code":504}',
    );
  });

  it('reorders a Status built elsewhere and drops its empty members, keeping empty details', () => {
    const built = {
      code: 0,
      details: {},
      status: 'Success',
      metadata: { continue: '', resourceVersion: '5' },
      apiVersion: 'v1',
      kind: 'Status',
    } as unknown as Status;
    assert.equal(
      goJSONText(orderedStatus(built)),
      '{"kind":"Status","apiVersion":"v1","metadata":{"resourceVersion":"5"},"status":"Success","details":{}}',
    );
  });
});
