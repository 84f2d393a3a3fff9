// --apf-fair-queuing in one server: with the server's concurrency at 2 seats, the anonymous user's
// global-default level gets 1; a second anonymous request waits for the first (held by a latency
// fault) while system:masters (exempt) passes at once, and a level whose limit response is Reject
// answers kube's 429 instead of queuing.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assembleBuiltinAPI } from '../../src/controlplane/api-assembly.js';
import { ControlPlane } from '../../src/controlplane/instance.js';
import { memorySink } from '../../src/server/logging/logger.js';
import { completeServerRunOptions } from '../../src/server/options/complete.js';
import { defaultServerRunOptions } from '../../src/server/options/server-run-options.js';
import type { Faults } from '../../src/server/test-api/faults.js';
import { waitFor } from './support/wait-for.js';

describe('--apf-fair-queuing', () => {
  let cp: ControlPlane;
  let faults: Faults;
  const call = async (path: string, init: { method?: string; body?: unknown; admin?: boolean } = {}) => {
    const res = await fetch(`${cp.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.admin === true
          ? { authorization: `Bearer ${cp.kubeConfig.users[0]?.user.token ?? ''}` }
          : {}),
        'content-type': 'application/json',
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, text: await res.text(), done: performance.now() };
  };

  let dataDir = '';

  before(async () => {
    const o = defaultServerRunOptions();
    // Its own state: not the checkout's ./.capstan, which a run before would have left holding 'jail'.
    dataDir = await mkdtemp(join(tmpdir(), 'capstan-apf-'));
    o.storage.dataDir = dataDir;
    o.storage.backend = 'memory';
    o.securePort = -1;
    o.insecurePort = 1;
    // kube turns anonymous auth off under AlwaysAllow: RBAC, and a binding that lets anonymous in.
    o.authorizationModes = ['RBAC'];
    o.maxRequestsInflight = 1;
    o.maxMutatingRequestsInflight = 1;
    o.apfFairQueuing = true;
    const options = await completeServerRunOptions(o, { logSink: memorySink() });
    cp = await ControlPlane.create({
      options,
      assemble: assembleBuiltinAPI,
      listeners: [{ bindAddress: '127.0.0.1', port: 0 }],
      testAPI: { requestLog: false },
    });
    const testAPI = cp.testAPI;
    assert.ok(testAPI !== undefined);
    faults = testAPI.faults;
    await cp.start();
    await cp.ready;
    const binding = await call('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      method: 'POST',
      admin: true,
      body: {
        metadata: { name: 'anonymous-admin' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:unauthenticated' }],
      },
    });
    assert.equal(binding.status, 201, binding.text);
    await waitFor(
      'anonymous requests authorized',
      async () => (await call('/api/v1/namespaces/default/configmaps')).status,
      (status) => status === 200,
    );
  });

  after(async () => {
    await cp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('queues a second request of a one-seat level behind the first, not an exempt one', async () => {
    faults.add({
      user: 'system:anonymous',
      namespace: 'default',
      resource: 'configmaps',
      latencyMs: 300,
      times: 1,
    });
    const first = call('/api/v1/namespaces/default/configmaps');
    await waitFor(
      'the first request held',
      () => Promise.resolve(faults.list()[0]),
      (r) => r === undefined || r.remaining === 0,
    );
    const second = call('/api/v1/namespaces/default/configmaps');
    const admin = await call('/api/v1/namespaces/default/configmaps', { admin: true });
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual([a.status, b.status, admin.status], [200, 200, 200]);
    assert.ok(admin.done < a.done, 'the exempt request did not wait');
    assert.ok(b.done >= a.done, 'the second anonymous request waited for the first');
    // The second one's wait in the queue is left out of its SLI latency (kube's APF queue wait
    // tracker): of the two lists that took over 0.2 s, one did in the SLI.
    const metrics = (await call('/metrics', { admin: true })).text.split('\n');
    const series =
      'verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"';
    const value = (line: string): number =>
      Number(metrics.find((l) => l.startsWith(`${line} `))?.slice(line.length + 1));
    const slow = (metric: string, labels: string): number =>
      value(`${metric}_count{${labels}}`) - value(`${metric}_bucket{le="0.2",${labels}}`);
    const sliSlow = slow('apiserver_request_sli_duration_seconds', series);
    const slowLists = slow('apiserver_request_duration_seconds', series.replace('",', '",dry_run="",'));
    assert.ok(slowLists >= 2, String(slowLists));
    assert.equal(slowLists - sliSlow, 1);
  });

  it('answers 429 on a Reject level with its seat taken', async () => {
    const pl = await call('/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations', {
      method: 'POST',
      admin: true,
      body: {
        metadata: { name: 'jail' },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } },
        },
      },
    });
    assert.equal(pl.status, 201, pl.text);
    const fs = await call('/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', {
      method: 'POST',
      admin: true,
      body: {
        metadata: { name: 'jailed' },
        spec: {
          priorityLevelConfiguration: { name: 'jail' },
          matchingPrecedence: 10,
          rules: [
            {
              subjects: [{ kind: 'User', user: { name: 'system:anonymous' } }],
              resourceRules: [
                { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['kube-public'] },
              ],
            },
          ],
        },
      },
    });
    assert.equal(fs.status, 201, fs.text);
    const res = await fetch(`${cp.url}/api/v1/namespaces/kube-public/configmaps`);
    await waitFor(
      'the jailed schema in force',
      async () =>
        (await fetch(`${cp.url}/api/v1/namespaces/kube-public/configmaps`)).headers.get(
          'x-kubernetes-pf-flowschema-uid',
        ),
      (uid) => uid === (JSON.parse(fs.text) as { metadata: { uid: string } }).metadata.uid,
    );
    await res.text();
    faults.add({
      user: 'system:anonymous',
      namespace: 'kube-public',
      resource: 'configmaps',
      latencyMs: 300,
      times: 1,
    });
    const held = call('/api/v1/namespaces/kube-public/configmaps');
    await waitFor(
      'the jailed request held',
      () => Promise.resolve(faults.list().length),
      (n) => n === 0 || faults.list()[0]?.remaining === 0,
    );
    const refused = await call('/api/v1/namespaces/kube-public/configmaps');
    assert.equal(refused.status, 429);
    assert.equal(refused.text, 'Too many requests, please try again later.\n');
    assert.equal((await held).status, 200);
    // A rejection in self-defense, counted as kube counts it; a request that was served is not.
    const metrics = (await call('/metrics', { admin: true })).text;
    assert.match(
      metrics,
      /\napiserver_request_terminations_total\{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="429"\} 1\n/,
    );
    assert.doesNotMatch(metrics, /apiserver_request_terminations_total\{[^}]*code="200"/);
  });
});
