// A minimal audit event for the backends' tests.
import type { AuditEvent } from '../types.js';

export const testEvent = (auditID: string): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID,
  stage: 'ResponseComplete',
  requestURI: '/api',
  verb: 'get',
  user: { username: 'u' },
  sourceIPs: ['127.0.0.1'],
  requestReceivedTimestamp: '2026-01-01T00:00:00.000000Z',
  stageTimestamp: '2026-01-01T00:00:00.000000Z',
});
