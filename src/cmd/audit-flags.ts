// The audit flags (kube-apiserver's Auditing section, in its alphabetical order), each writing one
// ServerRunOptions field.
import { flag, type Spec } from './flag-helpers.js';
import { parseBoolFlag, parseDurationFlag, parseFloatFlag, parseIntFlag } from './flag-values.js';
import type { ServerRunOptions } from '../server/options/server-run-options.js';
import type { AuditBatchOptions, AuditTruncateOptions } from '../server/options/audit-options.js';

const audit = 'Auditing';

/** AuditTruncateOptions.AddFlags. */
function truncateFlags(
  plugin: 'log' | 'webhook',
  pick: (o: ServerRunOptions) => AuditTruncateOptions,
): Spec[] {
  const name = (n: string): string => `audit-${plugin}-truncate-${n}`;
  return [
    flag(
      {
        section: audit,
        name: name('enabled'),
        kind: 'bool',
        usage: 'Whether event and batch truncating is enabled.',
      },
      (o, v) => (pick(o).enabled = parseBoolFlag(v)),
    ),
    flag(
      {
        section: audit,
        name: name('max-batch-size'),
        kind: 'int64',
        usage:
          'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.',
        def: '10485760',
      },
      (o, v) => (pick(o).maxBatchSize = parseIntFlag(v)),
    ),
    flag(
      {
        section: audit,
        name: name('max-event-size'),
        kind: 'int64',
        usage:
          "Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn't reduce the size enough, event is discarded.",
        def: '102400',
      },
      (o, v) => (pick(o).maxEventSize = parseIntFlag(v)),
    ),
  ];
}

/** AuditBatchOptions.AddFlags: --audit-<plugin>-mode and --audit-<plugin>-batch-*, defaults as help shows them. */
function batchFlags(
  plugin: 'log' | 'webhook',
  pick: (o: ServerRunOptions) => AuditBatchOptions,
  defs: {
    mode: string;
    buffer: string;
    size: string;
    wait?: string;
    throttle?: string;
    qps?: string;
    burst?: string;
  },
): { batch: Spec[]; mode: Spec } {
  const prefix = `audit-${plugin}`;
  const spec = (
    t: { name: string; kind: Spec['kind']; usage: string; def: string | undefined },
    apply: (b: AuditBatchOptions, v: string) => void,
  ): Spec =>
    flag(
      {
        section: audit,
        name: `${prefix}-${t.name}`,
        kind: t.kind,
        usage: t.usage,
        ...(t.def === undefined ? {} : { def: t.def }),
      },
      (o, v) => {
        apply(pick(o), v);
      },
    );
  return {
    batch: [
      spec(
        {
          name: 'batch-buffer-size',
          kind: 'int',
          usage:
            'The size of the buffer to store events before batching and writing. Only used in batch mode.',
          def: defs.buffer,
        },
        (b, v) => (b.bufferSize = parseIntFlag(v)),
      ),
      spec(
        {
          name: 'batch-max-size',
          kind: 'int',
          usage: 'The maximum size of a batch. Only used in batch mode.',
          def: defs.size,
        },
        (b, v) => (b.maxBatchSize = parseIntFlag(v)),
      ),
      spec(
        {
          name: 'batch-max-wait',
          kind: 'duration',
          usage:
            "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
          def: defs.wait,
        },
        (b, v) => (b.maxBatchWaitMs = parseDurationFlag(v)),
      ),
      spec(
        {
          name: 'batch-throttle-burst',
          kind: 'int',
          usage:
            'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.',
          def: defs.burst,
        },
        (b, v) => (b.throttleBurst = parseIntFlag(v)),
      ),
      spec(
        {
          name: 'batch-throttle-enable',
          kind: 'bool',
          usage: 'Whether batching throttling is enabled. Only used in batch mode.',
          def: defs.throttle,
        },
        (b, v) => (b.throttleEnable = parseBoolFlag(v)),
      ),
      spec(
        {
          name: 'batch-throttle-qps',
          kind: 'float32',
          usage: 'Maximum average number of batches per second. Only used in batch mode.',
          def: defs.qps,
        },
        (b, v) => (b.throttleQPS = parseFloatFlag(v)),
      ),
    ],
    mode: spec(
      {
        name: 'mode',
        kind: 'string',
        usage:
          'Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.',
        def: defs.mode,
      },
      (b, v) => (b.mode = v),
    ),
  };
}

const log = batchFlags('log', (o) => o.auditLogBatch, { mode: '"blocking"', buffer: '10000', size: '1' });
const webhook = batchFlags('webhook', (o) => o.auditWebhookBatch, {
  mode: '"batch"',
  buffer: '10000',
  size: '400',
  wait: '30s',
  throttle: 'true',
  qps: '10',
  burst: '15',
});

export const auditFlags: Spec[] = [
  ...log.batch,
  flag(
    {
      section: audit,
      name: 'audit-log-maxage',
      kind: 'int',
      usage:
        'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
    },
    (o, v) => (o.auditLogMaxAge = parseIntFlag(v)),
  ),
  flag(
    {
      section: audit,
      name: 'audit-log-maxbackup',
      kind: 'int',
      usage:
        "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
    },
    (o, v) => (o.auditLogMaxBackup = parseIntFlag(v)),
  ),
  flag(
    {
      section: audit,
      name: 'audit-log-maxsize',
      kind: 'int',
      usage: 'The maximum size in megabytes of the audit log file before it gets rotated.',
    },
    (o, v) => (o.auditLogMaxSize = parseIntFlag(v)),
  ),
  log.mode,
  flag(
    {
      section: audit,
      name: 'audit-log-path',
      kind: 'string',
      usage:
        "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
    },
    (o, v) => (o.auditLogPath = v),
  ),
  ...truncateFlags('log', (o) => o.auditLogTruncate),
  flag(
    {
      section: audit,
      name: 'audit-policy-file',
      kind: 'string',
      usage: 'Path to the file that defines the audit policy configuration.',
    },
    (o, v) => (o.auditPolicyFile = v),
  ),
  ...webhook.batch,
  flag(
    {
      section: audit,
      name: 'audit-webhook-config-file',
      kind: 'string',
      usage: 'Path to a kubeconfig formatted file that defines the audit webhook configuration.',
    },
    (o, v) => (o.auditWebhookConfigFile = v),
  ),
  flag(
    {
      section: audit,
      name: 'audit-webhook-initial-backoff',
      kind: 'duration',
      usage: 'The amount of time to wait before retrying the first failed request.',
      def: '10s',
    },
    (o, v) => (o.auditWebhookInitialBackoffMs = parseDurationFlag(v)),
  ),
  webhook.mode,
  ...truncateFlags('webhook', (o) => o.auditWebhookTruncate),
];
