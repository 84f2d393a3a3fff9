import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TruncatingAuditBackend } from './truncate-backend.js';
import { testEvent } from './testing/test-event.js';
import type { AuditEvent, AuditLevel, AuditSink } from './types.js';

const withBody = (id: string, level: AuditLevel, bytes: number): AuditEvent => ({
  ...testEvent(id),
  level,
  requestObject: { data: 'x'.repeat(bytes) },
});

describe('TruncatingAuditBackend', () => {
  it('strips the objects of a large event at level Request, drops one still too large, splits batches by size', () => {
    const batches: AuditEvent[][] = [];
    const delegate: AuditSink = {
      processEvents: (...events: AuditEvent[]) => {
        batches.push(events);
        return true;
      },
    };
    const errors: [string, number][] = [];
    const small = testEvent('small');
    const size = Buffer.byteLength(JSON.stringify(small));
    const b = new TruncatingAuditBackend({
      delegate,
      config: { maxEventSize: size + 100, maxBatchSize: 2 * size + 150 },
      onError: (e, n) => errors.push([e.message, n]),
    });
    const big = withBody('big', 'Request', 500);
    const stored = b.processEvents(
      small,
      big,
      withBody('metadata-only', 'Metadata', 500),
      testEvent('third'),
      testEvent('fourth'),
    );
    assert.equal(stored, true);
    assert.deepEqual(
      batches.map((batch) => batch.map((e) => e.auditID)),
      [
        ['small', 'big'],
        ['third', 'fourth'],
      ],
    );
    const cut = batches[0]?.[1];
    assert.equal(cut?.requestObject, undefined);
    assert.deepEqual(cut?.annotations, { 'audit.k8s.io/truncated': 'true' });
    assert.ok(big.requestObject !== undefined, 'the caller’s event is left as it was');
    assert.deepEqual(errors, [['event is too large even after truncating', 1]]);
  });
});
