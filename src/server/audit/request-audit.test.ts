import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEventJSON } from './event-json.js';
import { RequestAudit } from './request-audit.js';
import { testEvent } from './testing/test-event.js';
import type { AuditEvent, AuditLevel } from './types.js';

/** The record of one request at `level`, and the events it wrote. */
function record(
  level: AuditLevel,
  omitManagedFields = false,
): { audit: RequestAudit; written: AuditEvent[] } {
  const written: AuditEvent[] = [];
  const sink = {
    processEvents: (...events: AuditEvent[]) => {
      written.push(...structuredClone(events));
      return true;
    },
  };
  const audit = new RequestAudit(
    { ...testEvent('a1'), level },
    { level, omitStages: [], omitManagedFields },
    sink,
  );
  return { audit, written };
}

const patchBytes = Buffer.from(
  '{ "metadata": { "managedFields": [ {"manager": "m"} ] },\n  "data": { "9": "y", "10": "x", "n": 1.50 } }',
);
const patchText = '{"metadata":{"managedFields":[{"manager":"m"}]},"data":{"9":"y","10":"x","n":1.50}}';

describe('RequestAudit.logRequestPatch (kube’s LogRequestPatch)', () => {
  it('keeps the bytes, compacted, at level Request and above; managedFields are not omitted', () => {
    for (const level of ['Request', 'RequestResponse'] as const) {
      const { audit, written } = record(level, true);
      audit.logRequestPatch(patchBytes);
      void audit.stage('ResponseComplete');
      const [event] = written;
      assert.ok(event !== undefined);
      assert.equal(event.rawRequestObject, patchText);
      assert.equal(event.requestObject, undefined);
      assert.ok(auditEventJSON(event).includes(`"requestObject":${patchText},`));
    }
  });

  it('logs nothing below level Request, nor bytes that are not JSON (a YAML apply patch)', () => {
    const metadata = record('Metadata');
    metadata.audit.logRequestPatch(patchBytes);
    assert.equal(metadata.audit.event.rawRequestObject, undefined);
    const yaml = record('Request');
    yaml.audit.logRequestPatch(Buffer.from('apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "1"\n'));
    assert.equal(yaml.audit.event.rawRequestObject, undefined);
    assert.equal(yaml.audit.event.requestObject, undefined);
  });

  it('takes the place of a decoded object, and a later decoded object does not replace it', () => {
    const { audit } = record('Request');
    audit.logRequestObject({ kind: 'DeleteOptions', apiVersion: 'v1' });
    audit.logRequestPatch(patchBytes);
    audit.logRequestObject({ kind: 'DeleteOptions', apiVersion: 'v1' });
    assert.equal(audit.event.requestObject, undefined);
    assert.equal(audit.event.rawRequestObject, patchText);
  });
});
