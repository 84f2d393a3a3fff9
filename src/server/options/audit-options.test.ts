import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { decodePolicy } from '../audit/policy.js';
import type { AuditMetrics } from '../audit/metrics.js';
import type { AuditEvent } from '../audit/types.js';
import { Logger, memorySink } from '../logging/logger.js';
import {
  auditBackendsOf,
  defaultLogBatchOptions,
  defaultTruncateOptions,
  defaultWebhookBatchOptions,
} from './audit-options.js';
import type { CompletedServerRunOptions } from './complete.js';

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
