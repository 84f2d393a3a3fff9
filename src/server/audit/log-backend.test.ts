import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLogBackend } from './log-backend.js';
import type { AuditEvent } from './types.js';

const event = (auditID: string): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID,
  stage: 'ResponseComplete',
  requestURI: '/api/v1/pods',
  verb: 'list',
  user: { username: 'jane', groups: ['system:authenticated'] },
  sourceIPs: ['127.0.0.1'],
  requestReceivedTimestamp: '2026-01-01T00:00:00.000000Z',
  stageTimestamp: '2026-01-01T00:00:00.000001Z',
});

describe('AuditLogBackend', () => {
  it('writes JSON lines and rotates past maxsize, keeping maxbackup backups', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capstan-audit-log-'));
    try {
      const line = `${JSON.stringify(event('id-0'))}\n`;
      let t = Date.UTC(2026, 0, 1);
      const backend = new AuditLogBackend({
        path: join(dir, 'audit.log'),
        maxSizeBytes: line.length * 2,
        maxBackups: 2,
        maxAgeDays: 0,
        now: () => new Date((t += 1000)),
      });
      for (let i = 0; i < 7; i++) backend.processEvents(event(`id-${i}`));
      backend.close();
      const files = readdirSync(dir).sort();
      assert.deepEqual(files, [
        'audit-2026-01-01T00-00-02.000.log',
        'audit-2026-01-01T00-00-03.000.log',
        'audit.log',
      ]);
      const ids = (f: string): string[] =>
        readFileSync(join(dir, f), 'utf8')
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as AuditEvent).auditID);
      assert.deepEqual(ids('audit-2026-01-01T00-00-02.000.log'), ['id-2', 'id-3']);
      assert.deepEqual(ids('audit-2026-01-01T00-00-03.000.log'), ['id-4', 'id-5']);
      assert.deepEqual(ids('audit.log'), ['id-6']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
