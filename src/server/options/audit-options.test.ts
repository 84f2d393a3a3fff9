import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateAuditOptions } from './audit-options.js';
import { defaultServerRunOptions } from './server-run-options.js';

describe('audit options', () => {
  it("has kube's defaults: the log blocks one event at a time, the webhook batches 400 or 30s at 10 qps", () => {
    const o = defaultServerRunOptions();
    assert.deepEqual(o.auditLogBatch, {
      mode: 'blocking',
      bufferSize: 10_000,
      maxBatchSize: 1,
      maxBatchWaitMs: 0,
      throttleEnable: false,
      throttleQPS: 0,
      throttleBurst: 0,
    });
    assert.deepEqual(o.auditWebhookBatch, {
      mode: 'batch',
      bufferSize: 10_000,
      maxBatchSize: 400,
      maxBatchWaitMs: 30_000,
      throttleEnable: true,
      throttleQPS: 10,
      throttleBurst: 15,
    });
    assert.equal(o.auditWebhookInitialBackoffMs, 10_000);
  });

  it("validates a backend's options only when it is on, with kube's texts", () => {
    const o = defaultServerRunOptions();
    o.auditWebhookBatch.mode = 'lazy';
    o.auditLogBatch.mode = 'batch';
    o.auditLogBatch.bufferSize = 0;
    o.auditLogMaxAge = -1;
    assert.deepEqual(validateAuditOptions(o), []);
    o.auditWebhookConfigFile = '/webhook.kubeconfig';
    o.auditLogPath = '/audit.log';
    assert.deepEqual(validateAuditOptions(o), [
      'invalid audit batch log buffer size 0, must be a positive number',
      "--audit-log-maxage -1 can't be a negative number",
      'invalid audit webhook mode lazy, allowed modes are "batch,blocking,blocking-strict"',
    ]);
    o.auditWebhookBatch.mode = 'batch';
    o.auditWebhookBatch.maxBatchSize = 0;
    o.auditLogBatch.bufferSize = 1;
    o.auditLogBatch.throttleEnable = true;
    o.auditLogMaxAge = 0;
    assert.deepEqual(validateAuditOptions(o), [
      'invalid audit batch log throttle QPS 0, must be a positive number',
      'invalid audit batch webhook max batch size 0, must be a positive number',
    ]);
  });
  it("validates the truncate options of an enabled backend with kube's texts", () => {
    const o = defaultServerRunOptions();
    o.auditLogPath = '-';
    o.auditLogTruncate.maxEventSize = 0;
    o.auditWebhookConfigFile = '/webhook.kubeconfig';
    o.auditWebhookTruncate.maxBatchSize = 10;
    assert.deepEqual(validateAuditOptions(o), [
      'invalid audit truncate log max event size 0, must be a positive number',
      'invalid audit truncate webhook max batch size 10, must be greater than max event size (102400)',
    ]);
  });
});
