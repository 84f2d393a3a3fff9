// The audit flags (kube-apiserver's Auditing section), each writing one ServerRunOptions field.
import { flag, type Spec } from './flag-helpers.js';
import { parseIntFlag } from './flag-values.js';

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
];
