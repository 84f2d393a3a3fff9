import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { auditEventJSON } from './event-json.js';
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
    const size = Buffer.byteLength(auditEventJSON(small));
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

  it('measures a patch logged as its bytes as written, and strips it as it strips a decoded body', () => {
    const passed: AuditEvent[] = [];
    const delegate: AuditSink = {
      processEvents: (...events: AuditEvent[]) => {
        passed.push(...events);
        return true;
      },
    };
    // The text as Go writes it: a backslash in it is one byte of the event, not two.
    const patch = (id: string, escapes: number): AuditEvent => ({
      ...testEvent(id),
      level: 'Request',
      rawRequestObject: `{"data":{"x":"${'\\u003c'.repeat(escapes)}"}}`,
    });
    const fits = patch('fits', 100);
    const limit = Buffer.byteLength(auditEventJSON(fits));
    assert.ok(Buffer.byteLength(JSON.stringify(fits)) > limit);
    const b = new TruncatingAuditBackend({
      delegate,
      config: { maxEventSize: limit, maxBatchSize: 10 * limit },
      onError: () => assert.fail('nothing is dropped'),
    });
    const cut = patch('cut', 101);
    assert.equal(b.processEvents(fits, cut), true);
    assert.deepEqual(
      passed.map((e) => [e.auditID, e.rawRequestObject, e.annotations]),
      [
        ['fits', fits.rawRequestObject, undefined],
        ['cut', undefined, { 'audit.k8s.io/truncated': 'true' }],
      ],
    );
    assert.ok(cut.rawRequestObject !== undefined, 'the caller’s event is left as it was');
  });
});
