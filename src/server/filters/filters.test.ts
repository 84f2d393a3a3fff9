import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testServer } from '../testing/test-server.js';
import type { APIMount } from '../generic-api-server.js';

const unauthorized = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

describe('authentication', () => {
  it('answers every path 401 without credentials when anonymous is off, as kube does', async () => {
    const { request, adminRequest } = testServer();
    for (const path of ['/version', '/healthz', '/livez', '/readyz', '/api', '/metrics', '/readyz/ping']) {
      const denied = await request(path);
      assert.equal(denied.statusCode, 401, path);
      assert.deepEqual(denied.json(), unauthorized);
    }
    assert.equal((await adminRequest('/healthz')).statusCode, 200);
    assert.equal((await adminRequest('/version')).statusCode, 200);
  });

  it('answers 401 to a token it does not know, whatever the path', async () => {
    const { request } = testServer();
    const res = await request({ url: '/healthz', headers: { authorization: 'Bearer wrong' } });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), unauthorized);
  });

  it('passes the authenticated user, in system:authenticated, to the API handler', async () => {
    let seen: readonly string[] = [];
    const api: APIMount = async (scope) => {
      seen = scope.user?.groups ?? [];
      scope.res.end('{}');
      return Promise.resolve(true);
    };
    const { adminRequest } = testServer({ api });
    assert.equal((await adminRequest('/api/v1/namespaces')).statusCode, 200);
    assert.deepEqual(seen, ['system:masters', 'system:authenticated']);
  });

  it('takes the Authorization header off the request once it authenticated it', async () => {
    let seen: { headers: unknown; raw: readonly string[] } | undefined;
    const api: APIMount = async (scope) => {
      seen = { headers: scope.req.headers.authorization, raw: scope.req.rawHeaders };
      scope.res.end('{}');
      return Promise.resolve(true);
    };
    const { request } = testServer({ api });
    const res = await request({
      url: '/api/v1/namespaces',
      headers: { 'X-Before': 'a', AUTHORIZATION: 'Bearer admin-token', 'X-After': 'b' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(seen?.headers, undefined);
    assert.deepEqual(
      seen?.raw
        .filter((_, i) => i % 2 === 0)
        .map((h) => h.toLowerCase())
        .filter((h) => h.startsWith('x-') || h === 'authorization'),
      ['x-before', 'x-after'],
    );
  });

  it('serves every path to anonymous users with --anonymous-auth', async () => {
    const { request } = testServer({ config: { anonymousAuth: true } });
    const res = await request('/api/v1/pods');
    assert.equal(res.statusCode, 404);
    assert.equal(res.json<{ message: string }>().message, 'the server could not find the requested resource');
  });

  it("limits anonymous requests to the authentication config's anonymous.conditions paths", async () => {
    const { request } = testServer({ config: { anonymousAuth: true, anonymousPaths: ['/api/v1/pods'] } });
    assert.equal((await request('/api/v1/pods')).statusCode, 404);
    assert.equal((await request('/api/v1/services')).statusCode, 401);
    // kube's anonymous authenticator answers only at its conditions' paths, health included.
    assert.equal((await request('/healthz')).statusCode, 401);
  });
});

describe('max in flight', () => {
  it('answers 429 with Retry-After past the limit, except to system:masters', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api: APIMount = async (scope) => {
      await gate;
      scope.res.end('{}');
      return true;
    };
    const { request, adminRequest } = testServer({
      api,
      config: { maxRequestsInFlight: 1, anonymousAuth: true },
    });
    const first = request('/api/v1/pods');
    await new Promise((r) => setImmediate(r));
    const rejected = await request('/api/v1/configmaps');
    assert.equal(rejected.statusCode, 429);
    assert.equal(rejected.headers['retry-after'], '1');
    assert.equal(rejected.payload, 'Too many requests, please try again later.\n');
    const privileged = adminRequest('/api/v1/secrets');
    const watch = request('/api/v1/pods?watch=true');
    release();
    assert.equal((await first).statusCode, 200);
    assert.equal((await privileged).statusCode, 200);
    assert.equal((await watch).statusCode, 200);
  });
});

describe('request timeout', () => {
  it('answers 504 Timeout to a request that is not long-running and drops late writes', async () => {
    let aborted = false;
    const api: APIMount = async (scope) => {
      await new Promise((r) => setTimeout(r, 80));
      aborted = scope.signal.aborted;
      scope.res.statusCode = 200;
      scope.res.end('late');
      return true;
    };
    const { adminRequest } = testServer({ api, config: { requestTimeoutMs: 20 } });
    const res = await adminRequest('/api/v1/pods');
    assert.equal(res.statusCode, 504);
    assert.deepEqual(res.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: request did not complete within the allotted timeout',
      reason: 'Timeout',
      code: 504,
      details: {},
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(aborted, true);
    // Counted as a request the server ended in self-defense (kube's RecordRequestTermination).
    // The scrape itself has 20 ms too: the first may time out while prom-client loads.
    let scrape = await adminRequest('/metrics');
    for (let i = 0; i < 50 && scrape.statusCode !== 200; i++) scrape = await adminRequest('/metrics');
    assert.match(
      scrape.payload,
      /\napiserver_request_terminations_total\{verb="LIST",group="",version="v1",resource="pods",subresource="",scope="cluster",component="apiserver",code="504"\} 1\n/,
    );
  });

  it('honours a shorter ?timeout= and leaves watches alone', async () => {
    const api: APIMount = async (scope) => {
      await new Promise((r) => setTimeout(r, 60));
      scope.res.end('{}');
      return true;
    };
    const { adminRequest } = testServer({ api, config: { requestTimeoutMs: 5000 } });
    assert.equal((await adminRequest('/api/v1/pods?timeout=10ms')).statusCode, 504);
    assert.equal((await adminRequest('/api/v1/pods?watch=1&timeout=10ms')).statusCode, 200);
  });
});

describe('panic recovery', () => {
  it('answers 500 InternalError and logs the stack', async () => {
    const api: APIMount = () => Promise.reject(new Error('boom'));
    const { adminRequest, logLines } = testServer({ api });
    const res = await adminRequest('/api/v1/pods');
    assert.equal(res.statusCode, 500);
    const body = res.json<{ reason: string; message: string }>();
    assert.equal(body.reason, 'InternalError');
    assert.equal(body.message, 'Internal error occurred: boom');
    assert.ok(logLines.some((l) => l.includes('apiserver panic') && l.includes('boom')));
  });
});

describe('metrics', () => {
  it('counts requests by verb, resource and code', async () => {
    const api: APIMount = async (scope) => {
      scope.res.end('{}');
      return Promise.resolve(true);
    };
    const { adminRequest } = testServer({ api });
    await adminRequest('/api/v1/namespaces/default/configmaps');
    await adminRequest({ url: '/api/v1/namespaces/default/configmaps', method: 'POST', payload: '{}' });
    const res = await adminRequest('/metrics');
    assert.equal(res.statusCode, 200);
    assert.match(
      res.payload,
      /apiserver_request_total\{verb="LIST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="200"\} 1/,
    );
    assert.match(
      res.payload,
      /apiserver_request_total\{verb="POST",[^}]*resource="configmaps",[^}]*scope="resource",[^}]*code="200"\} 1/,
    );
    assert.match(res.payload, /apiserver_request_duration_seconds_bucket\{le="0.005",verb="LIST"/);
    assert.match(
      res.payload,
      /apiserver_request_sli_duration_seconds_bucket\{le="0.05",verb="LIST",group=""/,
    );
    // The server's /version as labels, as kube-prometheus's KubeVersionMismatch reads it.
    assert.match(
      res.payload,
      /\nkubernetes_build_info\{major="1",minor="33",git_version="v1\.33\.0\+capstan\.[^"]+",git_commit="0{40}",git_tree_state="clean",[^}]*compiler="tsc",platform="[^"]+"\} 1\n/,
    );
    assert.match(res.payload, /apiserver_current_inflight_requests\{request_kind="mutating"\} 0/);
    assert.match(res.payload, /apiserver_current_inflight_requests\{request_kind="readOnly"\} 1/);
  });
});

describe('request parsing', () => {
  it("parses the URL and RequestInfo once and hands the API handler the filters' scope", async () => {
    const seen: { url: unknown; resource: string; name: string; verb: string }[] = [];
    const api: APIMount = async (scope) => {
      seen.push({
        url: scope.url,
        resource: scope.info.resource,
        name: scope.info.name,
        verb: scope.info.verb,
      });
      scope.res.end('{}');
      return Promise.resolve(true);
    };
    const { adminRequest } = testServer({ api });
    await adminRequest({ url: '/api/v1/namespaces/default/pods/p?dryRun=All', method: 'DELETE' });
    assert.equal(seen.length, 1);
    assert.ok(!(seen[0]?.url instanceof URL));
    assert.deepEqual(
      { ...seen[0], url: undefined },
      { url: undefined, resource: 'pods', name: 'p', verb: 'delete' },
    );
  });

  it('answers 400 to a target that is no URL, as Go does', async () => {
    const { adminRequest } = testServer();
    const res = await adminRequest('//%');
    assert.equal(res.statusCode, 400);
    assert.equal(res.payload, '400 Bad Request');
  });
});
