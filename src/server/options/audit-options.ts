// The audit flags' batching options, their validation with kube's texts, and the backends they
// build (k8s.io/apiserver/pkg/server/options/audit.go): the log backend blocks by default and
// batches one event at a time; the webhook batches 400 events or 30 s, at 10 batches a second
// (burst 15), retrying from --audit-webhook-initial-backoff.
import { auditModes, withAuditMode, type AuditMode } from '../audit/audit-modes.js';
import type { AuditMetrics } from '../audit/metrics.js';
import type { BatchConfig } from '../audit/buffered-backend.js';
import { AuditLogBackend } from '../audit/log-backend.js';
import type { AuditSink } from '../audit/types.js';
import { unionSink } from '../audit/union-sink.js';
import { AuditWebhookBackend } from '../audit/webhook-backend.js';
import { TruncatingAuditBackend } from '../audit/truncate-backend.js';
import type { Config } from '../config.js';
import type { Logger } from '../logging/logger.js';
import type { CompletedServerRunOptions } from './complete.js';
import type { ServerRunOptions } from './server-run-options.js';

/** --audit-{log,webhook}-mode and --audit-{log,webhook}-batch-*. */
export interface AuditBatchOptions {
  mode: string;
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
}

export function defaultWebhookBatchOptions(): AuditBatchOptions {
  return {
    mode: 'batch',
    bufferSize: 10_000,
    maxBatchSize: 400,
    maxBatchWaitMs: 30_000,
    throttleEnable: true,
    throttleQPS: 10,
    throttleBurst: 15,
  };
}

/** Batching a file gains nothing: one event a batch, no throttle (and blocking unless asked). */
export function defaultLogBatchOptions(): AuditBatchOptions {
  return {
    mode: 'blocking',
    bufferSize: 10_000,
    maxBatchSize: 1,
    maxBatchWaitMs: 0,
    throttleEnable: false,
    throttleQPS: 0,
    throttleBurst: 0,
  };
}

/** --audit-{log,webhook}-truncate-*. */
export interface AuditTruncateOptions {
  enabled: boolean;
  maxBatchSize: number;
  maxEventSize: number;
}

export function defaultTruncateOptions(): AuditTruncateOptions {
  return { enabled: false, maxBatchSize: 10 * 1024 * 1024, maxEventSize: 100 * 1024 };
}

function validateTruncateOptions(plugin: 'log' | 'webhook', t: AuditTruncateOptions): string | undefined {
  if (t.maxEventSize <= 0)
    return `invalid audit truncate ${plugin} max event size ${t.maxEventSize}, must be a positive number`;
  if (t.maxBatchSize < t.maxEventSize)
    return `invalid audit truncate ${plugin} max batch size ${t.maxBatchSize}, must be greater than max event size (${t.maxEventSize})`;
  return undefined;
}

/** kube's default --audit-webhook-initial-backoff. */
export const defaultAuditWebhookInitialBackoffMs = 10_000;

function validateBatchOptions(plugin: 'log' | 'webhook', b: AuditBatchOptions): string | undefined {
  if (!(auditModes as readonly string[]).includes(b.mode))
    return `invalid audit ${plugin} mode ${b.mode}, allowed modes are ${JSON.stringify(auditModes.join(','))}`;
  if (b.mode !== 'batch') return undefined;
  if (b.bufferSize <= 0)
    return `invalid audit batch ${plugin} buffer size ${b.bufferSize}, must be a positive number`;
  if (b.maxBatchSize <= 0)
    return `invalid audit batch ${plugin} max batch size ${b.maxBatchSize}, must be a positive number`;
  if (b.throttleEnable && b.throttleQPS <= 0)
    return `invalid audit batch ${plugin} throttle QPS ${b.throttleQPS}, must be a positive number`;
  if (b.throttleEnable && b.throttleBurst <= 0)
    return `invalid audit batch ${plugin} throttle burst ${b.throttleBurst}, must be a positive number`;
  return undefined;
}

/** AuditOptions.Validate: each backend's options checked only when the backend is on. */
export function validateAuditOptions(o: ServerRunOptions): string[] {
  const errs: string[] = [];
  if (o.auditLogPath !== '') {
    const batch = validateBatchOptions('log', o.auditLogBatch);
    if (batch !== undefined) errs.push(batch);
    const truncate = validateTruncateOptions('log', o.auditLogTruncate);
    if (truncate !== undefined) errs.push(truncate);
    for (const [flag, n] of [
      ['audit-log-maxage', o.auditLogMaxAge],
      ['audit-log-maxbackup', o.auditLogMaxBackup],
      ['audit-log-maxsize', o.auditLogMaxSize],
    ] as const) {
      if (n < 0) errs.push(`--${flag} ${n} can't be a negative number`);
    }
  }
  if (o.auditWebhookConfigFile !== '') {
    const batch = validateBatchOptions('webhook', o.auditWebhookBatch);
    if (batch !== undefined) errs.push(batch);
    const truncate = validateTruncateOptions('webhook', o.auditWebhookTruncate);
    if (truncate !== undefined) errs.push(truncate);
  }
  return errs;
}

const modeOf = (b: AuditBatchOptions): AuditMode => auditModes.find((m) => m === b.mode) ?? 'batch';

function batchConfig(b: AuditBatchOptions, asyncDelegate: boolean): BatchConfig {
  return {
    bufferSize: b.bufferSize,
    maxBatchSize: b.maxBatchSize,
    maxBatchWaitMs: b.maxBatchWaitMs,
    throttle: b.throttleEnable ? { qps: b.throttleQPS, burst: b.throttleBurst } : undefined,
    asyncDelegate,
  };
}

/**
 * audit.HandlePluginError: the events are counted (apiserver_audit_error_total) and the failure is
 * logged (the events are not: they may carry request bodies).
 */
const pluginError =
  (logger: Logger, plugin: string, metrics: AuditMetrics | undefined) =>
  (err: Error, dropped: number): void => {
    metrics?.pluginError(plugin, dropped);
    logger.error(`Error in audit plugin '${plugin}' affecting ${String(dropped)} audit events`, err);
  };

/** The truncating wrapper when it is enabled (outside the batching, as kube wraps them). */
function withTruncate(
  sink: AuditSink,
  t: AuditTruncateOptions,
  onError: (err: Error, dropped: number) => void,
): AuditSink {
  if (!t.enabled) return sink;
  return new TruncatingAuditBackend({
    delegate: sink,
    config: { maxBatchSize: t.maxBatchSize, maxEventSize: t.maxEventSize },
    onError,
  });
}

/** The audit policy with its backends: --audit-log-path (rotation in bytes) and the webhook. */
export function auditBackendsOf(o: CompletedServerRunOptions, metrics?: AuditMetrics): Config['audit'] {
  if (o.auditPolicy === undefined) return undefined;
  const sinks: AuditSink[] = [];
  const buffered = pluginError(o.logger, 'buffered', metrics);
  const truncate = pluginError(o.logger, 'truncate', metrics);
  if (o.auditLogPath !== '') {
    const log = new AuditLogBackend({
      path: o.auditLogPath,
      maxSizeBytes: o.auditLogMaxSize * 1024 * 1024,
      maxBackups: o.auditLogMaxBackup,
      maxAgeDays: o.auditLogMaxAge,
      onError: pluginError(o.logger, 'log', metrics),
    });
    const moded = withAuditMode(log, {
      mode: modeOf(o.auditLogBatch),
      batch: batchConfig(o.auditLogBatch, false),
      onBufferError: buffered,
    });
    sinks.push(withTruncate(moded, o.auditLogTruncate, truncate));
  }
  if (o.auditWebhookTarget !== undefined) {
    const webhook = new AuditWebhookBackend({
      target: o.auditWebhookTarget,
      initialBackoffMs: o.auditWebhookInitialBackoffMs,
      onError: pluginError(o.logger, 'webhook', metrics),
    });
    const moded = withAuditMode(webhook, {
      mode: modeOf(o.auditWebhookBatch),
      batch: batchConfig(o.auditWebhookBatch, true),
      onBufferError: buffered,
    });
    sinks.push(withTruncate(moded, o.auditWebhookTruncate, truncate));
  }
  return { policy: o.auditPolicy, sink: unionSink(sinks) };
}
