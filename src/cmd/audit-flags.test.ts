import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';
import { defaultServerRunOptions } from '../server/options/server-run-options.js';

describe('audit flags', () => {
  it('reads the batch flags of both backends', () => {
    const o = defaultServerRunOptions();
    parseFlags(
      [
        '--audit-log-mode=batch',
        '--audit-log-batch-max-size=5',
        '--audit-log-batch-max-wait=2s',
        '--audit-webhook-mode=blocking-strict',
        '--audit-webhook-batch-buffer-size=7',
        '--audit-webhook-batch-throttle-enable=false',
        '--audit-webhook-batch-throttle-qps=2.5',
        '--audit-webhook-batch-throttle-burst=3',
        '--audit-webhook-initial-backoff=250ms',
        '--audit-log-truncate-enabled',
        '--audit-webhook-truncate-max-event-size=2048',
      ],
      capstanFlags,
      o,
    );
    assert.equal(o.auditLogBatch.mode, 'batch');
    assert.equal(o.auditLogBatch.maxBatchSize, 5);
    assert.equal(o.auditLogBatch.maxBatchWaitMs, 2000);
    assert.equal(o.auditWebhookBatch.mode, 'blocking-strict');
    assert.equal(o.auditWebhookBatch.bufferSize, 7);
    assert.equal(o.auditWebhookBatch.throttleEnable, false);
    assert.equal(o.auditWebhookBatch.throttleQPS, 2.5);
    assert.equal(o.auditWebhookBatch.throttleBurst, 3);
    assert.equal(o.auditWebhookInitialBackoffMs, 250);
    assert.deepEqual(o.auditLogTruncate, { enabled: true, maxBatchSize: 10_485_760, maxEventSize: 102_400 });
    assert.equal(o.auditWebhookTruncate.maxEventSize, 2048);
    assert.throws(
      () => parseFlags(['--audit-webhook-batch-throttle-qps=fast'], capstanFlags, o),
      /invalid argument "fast" for "--audit-webhook-batch-throttle-qps" flag: strconv.ParseFloat: parsing "fast": invalid syntax/,
    );
  });
});
