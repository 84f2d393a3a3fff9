import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { decodePolicy } from '../audit/policy.js';
import type { AuditMetrics } from '../audit/metrics.js';
import type { AuditEvent } from '../audit/types.js';
import { Logger, memorySink } from '../logging/logger.js';
import {
  auditBackendsOf,
  defaultLogBatchOptions,
  defaultTruncateOptions,
  defaultWebhookBatchOptions,
  validateAuditOptions,
} from './audit-options.js';
import type { CompletedServerRunOptions } from './complete.js';
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

const event: AuditEvent = {
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID: 'a1',
  stage: 'ResponseComplete',
  requestURI: '/api',
  verb: 'get',
  user: { username: 'jane' },
  sourceIPs: ['127.0.0.1'],
  requestReceivedTimestamp: '2026-01-01T00:00:00.000000Z',
  stageTimestamp: '2026-01-01T00:00:00.000001Z',
};

describe('auditBackendsOf', () => {
  it("counts the events a plugin fails to record by plugin (kube's HandlePluginError)", () => {
    // A directory where the log file should be: every write fails.
    const dir = mkdtempSync(`${tmpdir()}/capstan-audit-options-`);
    const logSink = memorySink();
    const errors: [string, number][] = [];
    const metrics: AuditMetrics = {
      observeEvent: () => undefined,
      observePolicyLevel: () => undefined,
      pluginError: (plugin, n) => errors.push([plugin, n]),
      requestRejected: () => undefined,
    };
    try {
      const options = {
        auditPolicy: decodePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'),
        auditLogPath: dir,
        auditLogMaxSize: 0,
        auditLogMaxBackup: 0,
        auditLogMaxAge: 0,
        auditLogBatch: { ...defaultLogBatchOptions(), mode: 'blocking-strict' },
        auditLogTruncate: defaultTruncateOptions(),
        auditWebhookBatch: defaultWebhookBatchOptions(),
        auditWebhookTruncate: defaultTruncateOptions(),
        auditWebhookTarget: undefined,
        logger: new Logger({ sink: logSink }),
      } as unknown as CompletedServerRunOptions;
      const audit = auditBackendsOf(options, metrics);
      assert.ok(audit !== undefined);
      assert.equal(audit.sink.processEvents(event, event), false);
      assert.deepEqual(errors, [['log', 2]]);
      assert.ok(
        logSink.lines.some((l) => l.includes("Error in audit plugin 'log' affecting 2 audit events")),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
