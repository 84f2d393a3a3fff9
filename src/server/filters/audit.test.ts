import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testServer } from '../testing/test-server.js';
import { decodePolicy } from '../audit/policy.js';
import type { APIMount } from '../generic-api-server.js';
import type { AuditEvent, AuditSink } from '../audit/types.js';

const policy = decodePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');

const api: APIMount = async (scope) => {
  scope.res.setHeader('content-type', 'application/json');
  scope.res.end('{"kind":"NamespaceList"}');
  return Promise.resolve(true);
};

/** A sink that keeps a copy of every event, as it stood when it was sent. */
function recordingSink(): { events: AuditEvent[]; sink: AuditSink } {
  const events: AuditEvent[] = [];
  const sink: AuditSink = {
    processEvents: (...batch: AuditEvent[]) => {
      events.push(...batch.map((e) => structuredClone(e)));
      return true;
    },
  };
  return { events, sink };
}

describe('the audit filter and its backend modes', () => {
  it("blocking-strict: a request whose RequestReceived event is not stored is refused with kube's 500", async () => {
    const stages: string[] = [];
    const sink: AuditSink = {
      processEvents: (...events: AuditEvent[]) => {
        stages.push(...events.map((e) => e.stage));
        return Promise.resolve(false);
      },
    };
    let served = false;
    const { adminRequest, server } = testServer({
      config: { audit: { policy, sink } },
      api: (scope) => {
        served = true;
        return api(scope);
      },
    });
    const res = await adminRequest('/api/v1/namespaces?limit=1&watch=false');
    assert.equal(res.statusCode, 500);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(
      res.body,
      'Internal Server Error: "/api/v1/namespaces?limit=1&amp;watch=false": failed to store audit event\n',
    );
    assert.equal(served, false);
    assert.deepEqual(stages, ['RequestReceived']);
    // kube's apiserver_audit_* counters: one event sent, one request at Metadata, one refused.
    const metrics = (await server.metrics.render()).body;
    for (const line of [
      'apiserver_audit_event_total 1',
      'apiserver_audit_level_total{level="Metadata"} 1',
      'apiserver_audit_requests_rejected_total 1',
    ])
      assert.ok(metrics.split('\n').includes(line), line);
    server.metrics.close();
  });

  it('blocking: the request waits for RequestReceived to be stored before it is served', async () => {
    const order: string[] = [];
    const sink: AuditSink = {
      processEvents: (...events: AuditEvent[]) => {
        const stage = events[0]?.stage ?? '';
        order.push(`stored ${stage}`);
        return new Promise((resolve) =>
          setImmediate(() => {
            order.push(`done ${stage}`);
            resolve(true);
          }),
        );
      },
    };
    const { adminRequest } = testServer({
      config: { audit: { policy, sink } },
      api: (scope) => {
        order.push('served');
        return api(scope);
      },
    });
    const res = await adminRequest('/api/v1/namespaces');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(order.slice(0, 4), [
      'stored RequestReceived',
      'done RequestReceived',
      'served',
      'stored ResponseComplete',
    ]);
  });

  it('RequestReceived is stamped with the time the request was received, as kube stamps it', async () => {
    const { events, sink } = recordingSink();
    const { adminRequest } = testServer({ config: { audit: { policy, sink } }, api });
    assert.equal((await adminRequest('/api/v1/namespaces')).statusCode, 200);
    const [received, complete] = events;
    assert.equal(received?.stage, 'RequestReceived');
    assert.equal(received.stageTimestamp, received.requestReceivedTimestamp);
    assert.equal(complete?.stage, 'ResponseComplete');
    assert.equal(complete.requestReceivedTimestamp, received.requestReceivedTimestamp);
  });

  it('a watch has started once its status line is out, before any event: ResponseStarted then, as kube', async () => {
    const { events, sink } = recordingSink();
    let atHeaders: string[] = [];
    const { adminRequest } = testServer({
      config: { audit: { policy, sink } },
      api: (scope) => {
        scope.res.writeHead(200, { 'content-type': 'application/json' });
        atHeaders = events.map((e) => e.stage);
        scope.res.end();
        return Promise.resolve(true);
      },
    });
    assert.equal((await adminRequest('/api/v1/namespaces/default/pods?watch=1')).statusCode, 200);
    assert.deepEqual(atHeaders, ['RequestReceived', 'ResponseStarted']);
    const started = events.find((e) => e.stage === 'ResponseStarted');
    assert.equal(started?.responseStatus?.code, 200);
    // The end writes no second ResponseStarted.
    assert.deepEqual(
      events.map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
  });
});
