// Admission webhooks called by a Capstan in this process over raw HTTP: a webhook server with its
// own CA reached by URL and through a Service's EndpointSlice; denials, patches with reinvocation,
// failure policies, timeouts, selectors, matchConditions, dry runs and review versions. Every
// configuration selects its own namespace (label `case`), so the cases share one server.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import {
  allow,
  deny,
  nonLoopbackAddress,
  patch,
  startWebhookServer,
  type AdmissionReviewIn,
  type WebhookServer,
} from './support/webhook-server.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

const admissionPath = '/apis/admissionregistration.k8s.io/v1';

describe('admission webhooks', () => {
  let server: CapstanServer;
  let hooks: WebhookServer;

  async function call(method: string, path: string, body?: unknown): Promise<Reply> {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
  }

  async function namespace(name: string): Promise<void> {
    const r = await call('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { case: name } },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }

  const configMap = (
    ns: string,
    name: string,
    opts: { labels?: Record<string, string>; query?: string } = {},
  ): Promise<Reply> =>
    call('POST', `/api/v1/namespaces/${ns}/configmaps${opts.query ?? ''}`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, ...(opts.labels === undefined ? {} : { labels: opts.labels }) },
      data: { k: 'v' },
    });

  /** A configuration of one webhook on configmap writes in namespace `ns`. */
  async function configure(
    kind: 'validating' | 'mutating',
    ns: string,
    webhook: Record<string, unknown> & { name: string },
  ): Promise<void> {
    const resource = `${kind}webhookconfigurations`;
    const r = await call('POST', `${admissionPath}/${resource}`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration',
      metadata: { name: `${ns}-${webhook.name}` },
      webhooks: [
        {
          rules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              operations: ['CREATE', 'UPDATE'],
              resources: ['configmaps'],
            },
          ],
          namespaceSelector: { matchLabels: { case: ns } },
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          ...webhook,
        },
      ],
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }

  /** Waits until a configuration is in force: dry-run creates until `ready` holds for one. */
  async function untilInForce(
    ns: string,
    ready: (r: Reply) => boolean,
    labels?: Record<string, string>,
  ): Promise<void> {
    for (let i = 0; i < 250; i++) {
      const r = await configMap(ns, `probe-${String(i)}`, {
        query: '?dryRun=All',
        ...(labels === undefined ? {} : { labels }),
      });
      if (ready(r)) return;
      await sleep(20);
    }
    assert.fail(`the configuration for ${ns} never came into force`);
  }

  /** A port nothing listens on. */
  async function closedPort(): Promise<number> {
    const s = createServer();
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((resolve) =>
      s.close(() => {
        resolve();
      }),
    );
    return port;
  }

  before(async () => {
    hooks = await startWebhookServer(['hooks.wh-service.svc']);
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
    await hooks.close();
  });

  it('denies with the webhook’s message and code, passes warnings, and sends kube’s request fields', async () => {
    await namespace('wh-deny');
    hooks.handle('/deny', (review) => {
      const labels =
        (review.request.object?.['metadata'] as { labels?: Record<string, string> }).labels ?? {};
      if (labels['deny'] === 'yes') return deny(review, 'no deny labels');
      if (labels['deny'] === 'forbidden') return deny(review, 'not you', 403);
      return allow(review, { warnings: ['careful now'] });
    });
    await configure('validating', 'wh-deny', {
      name: 'deny.example.com',
      clientConfig: { url: hooks.url('/deny'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-deny', (r) => r.status === 400, { deny: 'yes' });
    const denied = await configMap('wh-deny', 'a', { labels: { deny: 'yes' } });
    assert.equal(denied.status, 400);
    assert.equal(
      denied.body['message'],
      'admission webhook "deny.example.com" denied the request: no deny labels',
    );
    assert.equal(denied.body['reason'], undefined);
    const forbidden = await configMap('wh-deny', 'b', { labels: { deny: 'forbidden' } });
    assert.equal(forbidden.status, 403);
    assert.equal(
      forbidden.body['message'],
      'admission webhook "deny.example.com" denied the request: not you',
    );

    const allowed = await configMap('wh-deny', 'c', {
      query: '?fieldManager=wh-test&fieldValidation=Strict',
    });
    assert.equal(allowed.status, 201, JSON.stringify(allowed.body));
    assert.equal(allowed.headers.get('warning'), '299 - "careful now"');
    const review = hooks.received('/deny').at(-1) as AdmissionReviewIn;
    assert.equal(review.apiVersion, 'admission.k8s.io/v1');
    assert.equal(review.kind, 'AdmissionReview');
    const req = review.request;
    assert.match(req.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(req['kind'], { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(req['resource'], { group: '', version: 'v1', resource: 'configmaps' });
    assert.deepEqual(req['requestKind'], req['kind']);
    assert.deepEqual(req['requestResource'], req['resource']);
    assert.equal(req['subResource'], undefined);
    assert.equal(req['name'], 'c');
    assert.equal(req['namespace'], 'wh-deny');
    assert.equal(req['operation'], 'CREATE');
    assert.equal(typeof (req['userInfo'] as { username?: unknown }).username, 'string');
    assert.equal(req['oldObject'], null);
    assert.equal(req['dryRun'], false);
    // The options as sent, kube's CreateOptions.
    assert.deepEqual(req['options'], {
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      fieldManager: 'wh-test',
      fieldValidation: 'Strict',
    });
    assert.deepEqual((req.object as { data?: unknown }).data, { k: 'v' });

    // An update carries the stored object as oldObject.
    const current = await call('GET', '/api/v1/namespaces/wh-deny/configmaps/c');
    const updated = await call('PUT', '/api/v1/namespaces/wh-deny/configmaps/c', {
      ...current.body,
      data: { k: 'w' },
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const update = (hooks.received('/deny').at(-1) as AdmissionReviewIn).request;
    assert.equal(update['operation'], 'UPDATE');
    assert.deepEqual(update['options'], { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
    assert.deepEqual((update['oldObject'] as { data?: unknown }).data, { k: 'v' });
    // A patch's options go as kube converts them: UpdateOptions with the manager, force left out.
    const patched = await fetch(
      `${server.url}/api/v1/namespaces/wh-deny/configmaps/c?fieldManager=wh-apply&force=true`,
      {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}`,
          'content-type': 'application/apply-patch+yaml',
        },
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'c' },
          data: { k: 'x' },
        }),
      },
    );
    assert.equal(patched.status, 200, await patched.text());
    assert.deepEqual((hooks.received('/deny').at(-1) as AdmissionReviewIn).request['options'], {
      kind: 'UpdateOptions',
      apiVersion: 'meta.k8s.io/v1',
      fieldManager: 'wh-apply',
    });
    assert.deepEqual((update.object as { data?: unknown }).data, { k: 'w' });
  });

  it('applies a mutating webhook’s JSON patch and reinvokes an IfNeeded webhook a later one changed', async () => {
    await namespace('wh-mutate');
    hooks.handle('/first', (review) => {
      const labels =
        (review.request.object?.['metadata'] as { labels?: Record<string, string> }).labels ?? {};
      const seen = String(Number(labels['first'] ?? '0') + 1);
      return patch(review, [{ op: 'add', path: '/metadata/labels/first', value: seen }]);
    });
    hooks.handle('/second', (review) =>
      patch(review, [{ op: 'add', path: '/metadata/labels/second', value: 'yes' }]),
    );
    // Configurations run in name order: wh-mutate-a-first before wh-mutate-b-second.
    await configure('mutating', 'wh-mutate', {
      name: 'a-first.example.com',
      reinvocationPolicy: 'IfNeeded',
      clientConfig: { url: hooks.url('/first'), caBundle: hooks.caBundle },
    });
    await configure('mutating', 'wh-mutate', {
      name: 'b-second.example.com',
      clientConfig: { url: hooks.url('/second'), caBundle: hooks.caBundle },
    });
    await untilInForce(
      'wh-mutate',
      (r) => (r.body['metadata'] as { labels?: Record<string, string> }).labels?.['second'] === 'yes',
      { x: '1' },
    );
    const before = hooks.received('/first').length;
    const created = await configMap('wh-mutate', 'patched', { labels: { x: '1' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual((created.body['metadata'] as { labels?: unknown }).labels, {
      x: '1',
      first: '2',
      second: 'yes',
    });
    const stored = await call('GET', '/api/v1/namespaces/wh-mutate/configmaps/patched');
    assert.deepEqual((stored.body['metadata'] as { labels?: unknown }).labels, {
      x: '1',
      first: '2',
      second: 'yes',
    });
    const firstCalls = hooks.received('/first').slice(before);
    assert.equal(firstCalls.length, 2);
    const secondSeen = (firstCalls[1]?.request.object?.['metadata'] as { labels?: Record<string, string> })
      .labels;
    assert.equal(secondSeen?.['second'], 'yes');
  });

  it('applies a webhook’s patch to the object as the review encoded it: the zero creationTimestamp is there', async () => {
    await namespace('wh-zero');
    // Before the create sets it, the object's creationTimestamp is the zero time, written null.
    hooks.handle('/zero', (review) =>
      patch(review, [
        { op: 'test', path: '/metadata/creationTimestamp', value: null },
        { op: 'add', path: '/metadata/labels/zero', value: 'seen' },
      ]),
    );
    await configure('mutating', 'wh-zero', {
      name: 'zero.example.com',
      clientConfig: { url: hooks.url('/zero'), caBundle: hooks.caBundle },
    });
    await untilInForce(
      'wh-zero',
      (r) => (r.body['metadata'] as { labels?: Record<string, string> }).labels?.['zero'] === 'seen',
      { x: '1' },
    );
    const review = hooks.received('/zero').at(-1) as AdmissionReviewIn;
    assert.equal((review.request.object?.['metadata'] as Record<string, unknown>)['creationTimestamp'], null);
  });

  it('fails closed with kube’s InternalError when the webhook is down, and open with failurePolicy Ignore', async () => {
    await namespace('wh-down');
    const port = await closedPort();
    const url = `https://127.0.0.1:${String(port)}/down`;
    await configure('validating', 'wh-down', {
      name: 'down.example.com',
      clientConfig: { url, caBundle: hooks.caBundle },
    });
    await untilInForce('wh-down', (r) => r.status === 500);
    const failed = await configMap('wh-down', 'x');
    assert.equal(failed.status, 500);
    assert.equal(failed.body['reason'], 'InternalError');
    assert.equal(
      failed.body['message'],
      `Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "${url}?timeout=10s": dial tcp 127.0.0.1:${String(port)}: connect: connection refused`,
    );

    await namespace('wh-ignore');
    await configure('validating', 'wh-ignore', {
      name: 'ignore.example.com',
      failurePolicy: 'Ignore',
      clientConfig: { url, caBundle: hooks.caBundle },
    });
    await configure('validating', 'wh-ignore', {
      name: 'marker.example.com',
      clientConfig: { url: hooks.url('/marker'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-ignore', () => hooks.received('/marker').length > 0);
    const passed = await configMap('wh-ignore', 'x');
    assert.equal(passed.status, 201, JSON.stringify(passed.body));
  });

  it('gives up on a webhook after timeoutSeconds', async () => {
    await namespace('wh-slow');
    hooks.handle('/slow', () => 'hang');
    await configure('validating', 'wh-slow', {
      name: 'slow.example.com',
      timeoutSeconds: 1,
      clientConfig: { url: hooks.url('/slow'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-slow', (r) => r.status === 500);
    const started = Date.now();
    const failed = await configMap('wh-slow', 'x');
    const took = Date.now() - started;
    assert.equal(failed.status, 500);
    assert.equal(
      failed.body['message'],
      `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hooks.url('/slow')}?timeout=1s": context deadline exceeded`,
    );
    assert.ok(took >= 900 && took < 5000, `took ${String(took)}ms`);
  });
  it("leaves a webhook's call out of the SLI latency, as kube's apiserver_request_sli_duration_seconds", async () => {
    await namespace('wh-sli');
    hooks.handle('/sluggish', (review) => ({ delayMs: 700, then: allow(review) }));
    await configure('mutating', 'wh-sli', {
      name: 'sluggish.example.com',
      clientConfig: { url: hooks.url('/sluggish'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-sli', () => hooks.received('/sluggish').length > 0);
    assert.equal((await configMap('wh-sli', 'slow')).status, 201);
    const metrics = await (
      await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}` },
      })
    ).text();
    const series =
      'verb="POST",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver"';
    const value = (line: string): number => {
      const found = metrics.split('\n').find((l) => l.startsWith(line + ' '));
      assert.ok(found !== undefined, `no ${line} in the metrics`);
      return Number(found.slice(line.length + 1));
    };
    // Every create here, the webhook's included, took the server less than 0.6 s; this one took the
    // webhook 0.7 s, which the request's duration counts.
    const sli = 'apiserver_request_sli_duration_seconds';
    assert.equal(value(`${sli}_bucket{le="0.6",${series}}`), value(`${sli}_count{${series}}`));
    const duration = 'apiserver_request_duration_seconds';
    const created = series.replace('verb="POST",', 'verb="POST",dry_run="",');
    assert.ok(value(`${duration}_bucket{le="0.6",${created}}`) < value(`${duration}_count{${created}}`));
  });

  it('calls a webhook only when its matchConditions hold, and fails closed when one cannot be evaluated', async () => {
    await namespace('wh-cel');
    hooks.handle('/cel', (review) => deny(review, 'matched'));
    await configure('validating', 'wh-cel', {
      name: 'cel.example.com',
      matchConditions: [
        { name: 'not-skipped', expression: "object.metadata.name != 'skip-me'" },
        { name: 'creates', expression: "request.operation == 'CREATE'" },
      ],
      clientConfig: { url: hooks.url('/cel'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-cel', (r) => r.status === 400);
    assert.equal((await configMap('wh-cel', 'skip-me')).status, 201);
    const sent = await configMap('wh-cel', 'sent');
    assert.equal(sent.body['message'], 'admission webhook "cel.example.com" denied the request: matched');

    await namespace('wh-cel-error');
    await configure('validating', 'wh-cel-error', {
      name: 'cel-error.example.com',
      matchConditions: [{ name: 'has-team', expression: "object.metadata.labels['team'] == 'a'" }],
      clientConfig: { url: hooks.url('/cel'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-cel-error', (r) => r.status === 403, { other: 'x' });
    const failed = await configMap('wh-cel-error', 'no-team', { labels: { other: 'x' } });
    assert.equal(failed.status, 403);
    assert.equal(failed.body['reason'], 'Forbidden');
    assert.equal(
      failed.body['message'],
      `configmaps "no-team" is forbidden: expression 'object.metadata.labels['team'] == 'a'' resulted in error: no such key: team`,
    );
    const other = await configMap('wh-cel-error', 'team-b', { labels: { team: 'b' } });
    assert.equal(other.status, 201, JSON.stringify(other.body));
  });

  it("counts calls, denials and failures in kube's apiserver_admission_* metrics", async () => {
    const scrape = async (): Promise<string> =>
      (
        await fetch(`${server.url}/metrics`, {
          headers: { authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}` },
        })
      ).text();
    /** The sample of the series with exactly these labels (0 when it is not shown). */
    const sample = (text: string, metric: string, labels: Record<string, string>): number => {
      for (const line of text.split('\n')) {
        const m = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
        if (m?.[1] !== metric) continue;
        const got = [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((p) => `${p[1] ?? ''}=${p[2] ?? ''}`);
        const want = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
        if (JSON.stringify(got.sort()) === JSON.stringify(want.sort())) return Number(m[3]);
      }
      return 0;
    };
    // Only the objects created here are sent: the root CA's ConfigMap in each namespace is not.
    const objectSelector = { matchLabels: { counted: 'yes' } };
    const counted = { labels: { counted: 'yes' } };
    const port = await closedPort();
    const down = `https://127.0.0.1:${String(port)}/down`;
    hooks.handle('/counted-allow', (review) => allow(review));
    hooks.handle('/counted-deny', (review) => deny(review, 'not this one', 409));
    hooks.handle('/counted-500', () => ({ raw: { status: 500, body: 'boom' } }));
    const cases = [
      {
        ns: 'wh-m-allow',
        kind: 'validating',
        name: 'm-allow.example.com',
        url: hooks.url('/counted-allow'),
        status: 201,
      },
      {
        ns: 'wh-m-deny',
        kind: 'validating',
        name: 'm-deny.example.com',
        url: hooks.url('/counted-deny'),
        status: 409,
      },
      {
        ns: 'wh-m-ignore',
        kind: 'validating',
        name: 'm-ignore.example.com',
        url: down,
        status: 201,
        failurePolicy: 'Ignore',
      },
      { ns: 'wh-m-fail', kind: 'mutating', name: 'm-fail.example.com', url: down, status: 500 },
      {
        ns: 'wh-m-excluded',
        kind: 'validating',
        name: 'm-excluded.example.com',
        url: hooks.url('/counted-deny'),
        status: 201,
        matchConditions: [{ name: 'never', expression: 'false' }],
      },
      {
        ns: 'wh-m-500',
        kind: 'validating',
        name: 'm-500.example.com',
        url: hooks.url('/counted-500'),
        status: 500,
      },
    ] as const;
    /** Whether a dry run has met the webhook: a call counted, or its matchConditions' exclusion. */
    const met = async (name: string): Promise<boolean> => {
      const text = await scrape();
      return [
        'apiserver_admission_webhook_request_total',
        'apiserver_admission_match_condition_exclusions_total',
      ].some((metric) => text.split('\n').some((l) => l.startsWith(`${metric}{name="${name}"`)));
    };
    const deltas: { before: string; after: string }[] = [];
    for (const c of cases) {
      await namespace(c.ns);
      await configure(c.kind, c.ns, {
        name: c.name,
        objectSelector,
        ...('failurePolicy' in c ? { failurePolicy: c.failurePolicy } : {}),
        ...('matchConditions' in c ? { matchConditions: c.matchConditions } : {}),
        clientConfig: { url: c.url, caBundle: hooks.caBundle },
      });
      for (let i = 0; i < 250 && !(await met(c.name)); i++) {
        await configMap(c.ns, `probe-${String(i)}`, { query: '?dryRun=All', ...counted });
        await sleep(20);
      }
      const before = await scrape();
      assert.equal((await configMap(c.ns, 'counted', counted)).status, c.status);
      deltas.push({ before, after: await scrape() });
    }
    const delta = (i: number, metric: string, labels: Record<string, string>): number => {
      const d = deltas[i]!;
      return sample(d.after, metric, labels) - sample(d.before, metric, labels);
    };
    const create = { operation: 'CREATE' };
    const requests = 'apiserver_admission_webhook_request_total';
    const rejections = 'apiserver_admission_webhook_rejection_count';
    const seconds = 'apiserver_admission_webhook_admission_duration_seconds_count';
    const validating = { type: 'validating', ...create };
    // Allowed: code 200, not rejected, timed.
    const allowed = { name: 'm-allow.example.com', ...validating };
    assert.equal(delta(0, requests, { ...allowed, code: '200', rejected: 'false' }), 1);
    assert.equal(delta(0, seconds, { ...allowed, rejected: 'false' }), 1);
    // Denied: the webhook's code, a rejection without error.
    const denied = { name: 'm-deny.example.com', ...validating };
    assert.equal(delta(1, requests, { ...denied, code: '409', rejected: 'true' }), 1);
    assert.equal(delta(1, seconds, { ...denied, rejected: 'true' }), 1);
    assert.equal(delta(1, rejections, { ...denied, error_type: 'no_error', rejection_code: '409' }), 1);
    // The step and the plugin that refused, as rejected validations of a create.
    const refused = { type: 'validate', ...create, rejected: 'true' };
    assert.equal(delta(1, 'apiserver_admission_step_admission_duration_seconds_count', refused), 1);
    assert.equal(delta(1, 'apiserver_admission_step_admission_duration_seconds_summary_count', refused), 1);
    const plugin = { name: 'ValidatingAdmissionWebhook', ...refused };
    assert.equal(delta(1, 'apiserver_admission_controller_admission_duration_seconds_count', plugin), 1);
    // Unreachable under Ignore: failed open, its call not a refusal (kube's code 400 for a failed call).
    const ignored = { name: 'm-ignore.example.com', ...validating };
    assert.equal(
      delta(2, 'apiserver_admission_webhook_fail_open_count', { name: ignored.name, type: 'validating' }),
      1,
    );
    assert.equal(delta(2, requests, { ...ignored, code: '400', rejected: 'false' }), 1);
    assert.equal(
      delta(2, rejections, { ...ignored, error_type: 'calling_webhook_error', rejection_code: '400' }),
      0,
    );
    // Unreachable under Fail: a refusal for calling the webhook.
    const failed = { name: 'm-fail.example.com', type: 'admit', ...create };
    assert.equal(delta(3, requests, { ...failed, code: '400', rejected: 'true' }), 1);
    assert.equal(
      delta(3, rejections, { ...failed, error_type: 'calling_webhook_error', rejection_code: '400' }),
      1,
    );
    assert.equal(
      delta(3, 'apiserver_admission_webhook_fail_open_count', { name: failed.name, type: 'admit' }),
      0,
    );
    // Left out by its matchConditions: an exclusion (typed as the webhook, `validate`) and the
    // evaluation's time (typed as its matcher, `validating`), no call.
    const excluded = { name: 'm-excluded.example.com', kind: 'webhook', ...create };
    assert.equal(
      delta(4, 'apiserver_admission_match_condition_exclusions_total', { ...excluded, type: 'validate' }),
      1,
    );
    assert.equal(
      delta(4, 'apiserver_admission_match_condition_evaluation_seconds_count', {
        ...excluded,
        type: 'validating',
      }),
      1,
    );
    assert.equal(
      delta(4, requests, { name: excluded.name, ...validating, code: '200', rejected: 'false' }),
      0,
    );
    // A webhook answering 500: the call's code is the webhook's, as client-go's StatusError has it.
    const erred = { name: 'm-500.example.com', ...validating };
    assert.equal(delta(5, requests, { ...erred, code: '500', rejected: 'true' }), 1);
    assert.equal(
      delta(5, rejections, { ...erred, error_type: 'calling_webhook_error', rejection_code: '500' }),
      1,
    );
    // Its words are client-go's for a 500 without a Status, with no request prefix.
    const again = await configMap('wh-m-500', 'again', counted);
    assert.equal(
      again.body['message'],
      'Internal error occurred: failed calling webhook "m-500.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
    );
  });

  it('sends only objects whose labels (new or old) the objectSelector selects, in namespaces the namespaceSelector selects', async () => {
    await namespace('wh-objects');
    await namespace('wh-elsewhere');
    hooks.handle('/objects', (review) => deny(review, 'selected'));
    await configure('validating', 'wh-objects', {
      name: 'objects.example.com',
      objectSelector: { matchLabels: { checked: 'yes' } },
      clientConfig: { url: hooks.url('/objects'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-objects', (r) => r.status === 400, { checked: 'yes' });
    assert.equal((await configMap('wh-objects', 'unchecked')).status, 201);
    assert.equal((await configMap('wh-objects', 'checked', { labels: { checked: 'yes' } })).status, 400);
    // Another namespace is not selected.
    assert.equal((await configMap('wh-elsewhere', 'checked', { labels: { checked: 'yes' } })).status, 201);
    // An update that removes the label still matches through the old object.
    const current = await call('GET', '/api/v1/namespaces/wh-elsewhere/configmaps/checked');
    const moved = await call('PUT', '/api/v1/namespaces/wh-objects/configmaps/unchecked', {
      ...(await call('GET', '/api/v1/namespaces/wh-objects/configmaps/unchecked')).body,
      data: { k: 'changed' },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(current.status, 200);
    hooks.handle('/objects', (review) =>
      review.request['operation'] === 'UPDATE' ? deny(review, 'old object selected') : allow(review),
    );
    const relabel = await call('GET', '/api/v1/namespaces/wh-objects/configmaps/unchecked');
    const labelled = await call('PUT', '/api/v1/namespaces/wh-objects/configmaps/unchecked', {
      ...relabel.body,
      metadata: { ...(relabel.body['metadata'] as object), labels: { checked: 'yes' } },
    });
    assert.equal(labelled.status, 400, JSON.stringify(labelled.body));
  });

  it('reaches a webhook through its Service’s endpoints with the service’s TLS name', async () => {
    await namespace('wh-service');
    // Endpoints may not be loopback addresses: the machine's own address serves, else an
    // ExternalName Service naming localhost (resolved the same way).
    const address = nonLoopbackAddress();
    const spec =
      address === undefined
        ? { type: 'ExternalName', externalName: 'localhost' }
        : { ports: [{ name: 'https', port: 443, targetPort: hooks.port }] };
    const svc = await call('POST', '/api/v1/namespaces/wh-service/services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'hooks' },
      spec,
    });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
    if (address !== undefined) {
      const slice = await call('POST', '/apis/discovery.k8s.io/v1/namespaces/wh-service/endpointslices', {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'hooks-1', labels: { 'kubernetes.io/service-name': 'hooks' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: [address], conditions: { ready: true } }],
        ports: [{ name: 'https', port: hooks.port, protocol: 'TCP' }],
      });
      assert.equal(slice.status, 201, JSON.stringify(slice.body));
    }
    hooks.handle('/by-service', (review) => deny(review, 'through the service'));
    await configure('validating', 'wh-service', {
      name: 'service.example.com',
      clientConfig: {
        service: {
          namespace: 'wh-service',
          name: 'hooks',
          path: '/by-service',
          ...(address === undefined ? { port: hooks.port } : {}),
        },
        caBundle: hooks.caBundle,
      },
    });
    await untilInForce('wh-service', (r) => r.status === 400);
    const denied = await configMap('wh-service', 'x');
    assert.equal(
      denied.body['message'],
      'admission webhook "service.example.com" denied the request: through the service',
    );

    await configure('validating', 'wh-service', {
      name: 'missing.example.com',
      clientConfig: {
        service: { namespace: 'wh-service', name: 'missing', path: '/x' },
        caBundle: hooks.caBundle,
      },
    });
    await untilInForce('wh-service', (r) => r.status === 500);
    const failed = await configMap('wh-service', 'y');
    assert.equal(
      failed.body['message'],
      'Internal error occurred: failed calling webhook "missing.example.com": failed to call webhook: Post "https://missing.wh-service.svc:443/x?timeout=10s": service "missing" not found',
    );
  });

  it('sends dry runs to webhooks without side effects, v1beta1 reviews to webhooks that take only those', async () => {
    await namespace('wh-dry');
    hooks.handle('/dry', (review) => allow(review));
    await configure('validating', 'wh-dry', {
      name: 'dry.example.com',
      admissionReviewVersions: ['v1beta1'],
      clientConfig: { url: hooks.url('/dry'), caBundle: hooks.caBundle },
    });
    await untilInForce('wh-dry', () => hooks.received('/dry').length > 0);
    const dry = await configMap('wh-dry', 'dry', { query: '?dryRun=All' });
    assert.equal(dry.status, 201, JSON.stringify(dry.body));
    const review = hooks.received('/dry').at(-1) as AdmissionReviewIn;
    assert.equal(review.apiVersion, 'admission.k8s.io/v1beta1');
    assert.equal(review.request['dryRun'], true);
    assert.deepEqual(review.request['options'], {
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      dryRun: ['All'],
    });
    assert.equal((await call('GET', '/api/v1/namespaces/wh-dry/configmaps/dry')).status, 404);
  });

  it('admits pods/exec as CONNECT with its PodExecOptions, before the pod is looked up', async () => {
    await namespace('wh-connect');
    hooks.handle('/exec-deny', (review) => {
      const command = (review.request.object?.['command'] as string[] | null) ?? [];
      return command.includes('rm') ? deny(review, 'no rm here') : allow(review);
    });
    // Points a container name nobody has at the pod's second container.
    hooks.handle('/exec-mutate', (review) =>
      review.request.object?.['container'] === 'nobody'
        ? patch(review, [{ op: 'replace', path: '/container', value: 'second' }])
        : allow(review),
    );
    for (const [kind, name, path] of [
      ['validating', 'exec-deny.example.com', '/exec-deny'],
      ['mutating', 'exec-mutate.example.com', '/exec-mutate'],
    ] as const) {
      await configure(kind, 'wh-connect', {
        name,
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CONNECT'], resources: ['pods/exec'] }],
        clientConfig: { url: hooks.url(path), caBundle: hooks.caBundle },
      });
    }
    const exec = (pod: string, query: string): Promise<Reply> =>
      call('POST', `/api/v1/namespaces/wh-connect/pods/${pod}/exec?${query}`);
    const rm = (): Promise<Reply> =>
      exec('missing', 'command=rm&command=-rf&container=app&stdin=true&tty=true');
    let denied = await rm();
    for (let i = 0; i < 250 && denied.status !== 400; i++) {
      await sleep(20);
      denied = await rm();
    }
    // The webhook refuses before the pod is looked up: no 404.
    assert.equal(denied.status, 400, JSON.stringify(denied.body));
    assert.equal(
      denied.body['message'],
      'admission webhook "exec-deny.example.com" denied the request: no rm here',
    );
    const review = hooks.received('/exec-deny').at(-1) as AdmissionReviewIn;
    const req = review.request;
    assert.equal(req['operation'], 'CONNECT');
    assert.deepEqual(req['kind'], { group: '', version: 'v1', kind: 'PodExecOptions' });
    assert.deepEqual(req['resource'], { group: '', version: 'v1', resource: 'pods' });
    assert.equal(req['subResource'], 'exec');
    assert.equal(req['name'], 'missing');
    assert.equal(req['namespace'], 'wh-connect');
    assert.deepEqual(req.object, {
      kind: 'PodExecOptions',
      apiVersion: 'v1',
      stdin: true,
      stdout: true,
      stderr: true,
      tty: true,
      container: 'app',
      command: ['rm', '-rf'],
    });
    assert.equal(req['oldObject'], null);
    assert.equal(req['options'], null);
    // Allowed, the request goes on to the pod, which is not there.
    assert.equal((await exec('missing', 'command=date')).status, 404);

    // The connecter sees the options as mutating admission left them.
    const pod = await call('POST', '/api/v1/namespaces/wh-connect/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'first', image: 'busybox' },
          { name: 'second', image: 'busybox' },
        ],
      },
    });
    assert.equal(pod.status, 201, JSON.stringify(pod.body));
    const mutated = await exec('p', 'command=date&container=nobody');
    assert.equal(mutated.status, 400);
    assert.equal(mutated.body['message'], 'pod p does not have a host assigned');
    const unmutated = await exec('p', 'command=date&container=third');
    assert.equal(unmutated.body['message'], 'container third is not valid for pod p');
    // A dry run is refused before admission, as kube refuses it.
    const dry = await exec('p', 'command=rm&dryRun=All');
    assert.equal(dry.status, 400);
    assert.equal(dry.body['message'], 'dryRun is not supported');
    // pods/log is a getter in kube: no CONNECT admission. A pod without a node has no log location,
    // which kube's StreamObject answers 204.
    const calls = hooks.received('/exec-deny').length;
    const log = await fetch(`${server.url}/api/v1/namespaces/wh-connect/pods/p/log?container=first`, {
      headers: { authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}` },
    });
    assert.equal(log.status, 204);
    assert.equal(await log.text(), '');
    assert.equal(hooks.received('/exec-deny').length, calls);
  });
});
