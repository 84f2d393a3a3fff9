// The audit flags (kube-apiserver's Auditing section), each writing one ServerRunOptions field.
import { flag, type Spec } from './flag-helpers.js';
import { oneOf } from './flag-helpers.js';
import { parseDurationFlag, parseIntFlag } from './flag-values.js';
import { auditWebhookModes } from '../server/audit/webhook-backend.js';

const audit = 'Auditing';
export const auditFlags: Spec[] = [
  flag(
    {
      section: audit,
      name: 'audit-policy-file',
      kind: 'string',
      usage: 'Path to the file that defines the audit policy configuration.',
    },
    (o, v) => (o.auditPolicyFile = v),
  ),
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
  flag(
    {
      section: audit,
      name: 'audit-log-maxsize',
      kind: 'int',
      usage: 'The maximum size in megabytes of the audit log file before it gets rotated.',
    },
    (o, v) => (o.auditLogMaxSize = parseIntFlag(v)),
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
      name: 'audit-webhook-config-file',
      kind: 'string',
      usage: 'Path to a kubeconfig formatted file that defines the audit webhook configuration.',
    },
    (o, v) => (o.auditWebhookConfigFile = v),
  ),
  flag(
    {
      section: audit,
      name: 'audit-webhook-mode',
      kind: 'string',
      usage:
        'Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.',
      def: 'batch',
    },
    (o, v) => (o.auditWebhookMode = oneOf(auditWebhookModes, v)),
  ),
  flag(
    {
      section: audit,
      name: 'audit-webhook-batch-max-size',
      kind: 'int',
      usage: 'The maximum size of a batch. Only used in batch mode.',
      def: '400',
    },
    (o, v) => (o.auditWebhookBatchMaxSize = parseIntFlag(v)),
  ),
  flag(
    {
      section: audit,
      name: 'audit-webhook-batch-max-wait',
      kind: 'duration',
      usage:
        "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
      def: '30s',
    },
    (o, v) => (o.auditWebhookBatchMaxWaitMs = parseDurationFlag(v)),
  ),
];
