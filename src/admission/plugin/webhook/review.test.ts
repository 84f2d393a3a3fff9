// The review a webhook is sent and what is made of its answer: version negotiation, the request's
// fields, the answer's checks, denials' texts, JSON patches, and the two plugins over a fake
// poster (dry runs, failure policies, parallel validation, patches and reinvocation).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MutatingWebhook } from '../../../api/admissionregistration/v1/webhook.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { KubeObject } from '../../../api/meta.js';
import type { Attributes, VerbOptions } from '../../attributes.js';
import { AdmissionChain } from '../../chain.js';
import type { MutationInterface } from '../../interfaces.js';
import { webhookAccessor } from './accessor.js';
import type { WebhookCall, WebhookPoster } from '../../../registry/webhook/client.js';
import { toStatusErr } from './errors.js';
import { applyWebhookPatchWithText, decodeJSONPatch } from './json-patch.js';
import { MutatingAdmissionWebhook } from './mutating.js';
import {
  admissionRequest,
  admissionReview,
  negotiateReviewVersion,
  reviewBody,
  verifyAdmissionResponse,
} from './review.js';
import { staticWebhookSource } from './source.js';
import { ValidatingAdmissionWebhook } from './validating.js';

const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  operation: 'CREATE',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  subresource: '',
  namespace: 'ns',
  name: 'web',
  object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { a: '1' } } },
  oldObject: null,
  userInfo: { name: 'alice', uid: 'u1', groups: ['devs'], extra: { scopes: ['x'] } },
  dryRun: false,
  ...over,
});

const invocation = (a: Attributes) => ({ kind: a.kind, resource: a.resource, subresource: a.subresource });

describe('AdmissionReview', () => {
  it('is sent as kube’s encoder writes it: objects in its codec’s order, maps sorted, HTML escaped', () => {
    const cases: { name: string; object: string; old: string; want: string }[] = [
      {
        name: 'a built-in kind sent with sorted keys: its Go struct’s field order, the zero creationTimestamp null',
        object:
          '{"apiVersion":"v1","data":{"9":"<b>","10":"x"},"kind":"ConfigMap","metadata":{"uid":"u","name":"c"}}',
        old: 'null',
        want:
          '"object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","uid":"u","creationTimestamp":null},' +
          '"data":{"10":"x","9":"\\u003cb\\u003e"}},"oldObject":null',
      },
      {
        name: 'a custom resource: a map, keys sorted at every level',
        object:
          '{"kind":"W","apiVersion":"e.com/v1","spec":{"b":1,"a":{"9":1,"10":2}},"metadata":{"name":"w"}}',
        old: '{"kind":"W","apiVersion":"e.com/v1","metadata":{"name":"w"}}',
        want:
          '"object":{"apiVersion":"e.com/v1","kind":"W","metadata":{"name":"w"},"spec":{"a":{"10":2,"9":1},"b":1}},' +
          '"oldObject":{"apiVersion":"e.com/v1","kind":"W","metadata":{"name":"w"}}',
      },
    ];
    for (const c of cases) {
      const a = attrs({
        object: JSON.parse(c.object) as KubeObject,
        oldObject: JSON.parse(c.old) as KubeObject | null,
      });
      const review = admissionReview('v1', admissionRequest(a, { uid: 'x', invocation: invocation(a) }));
      const text = reviewBody(review).toString();
      assert.ok(
        text.startsWith('{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"x"'),
        c.name,
      );
      assert.ok(text.includes(c.want), `${c.name}: ${text}`);
    }
  });

  it('sends a CONNECT request’s options in their Go struct’s order, with options null', () => {
    const a = attrs({
      operation: 'CONNECT',
      kind: { group: '', version: 'v1', kind: 'PodExecOptions' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: 'exec',
      object: {
        kind: 'PodExecOptions',
        apiVersion: 'v1',
        stdout: true,
        stderr: true,
        command: ['ls'],
      },
    });
    const review = admissionReview('v1', admissionRequest(a, { uid: 'x', invocation: invocation(a) }));
    const text = reviewBody(review).toString();
    assert.ok(
      text.includes(
        '"operation":"CONNECT",' +
          '"userInfo":{"username":"alice","uid":"u1","groups":["devs"],"extra":{"scopes":["x"]}},' +
          '"object":{"kind":"PodExecOptions","apiVersion":"v1","stdout":true,"stderr":true,"command":["ls"]},' +
          '"oldObject":null,"dryRun":false,"options":null}',
      ),
      text,
    );
  });

  it('is sent as the first known version the webhook lists', () => {
    assert.equal(negotiateReviewVersion(['v1', 'v1beta1']), 'v1');
    assert.equal(negotiateReviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
    assert.equal(negotiateReviewVersion(['v2']), undefined);
  });

  it('carries the request’s fields as kube fills them', () => {
    const a = attrs({ operation: 'UPDATE', subresource: 'scale', dryRun: true, oldObject: { metadata: {} } });
    const r = admissionRequest(a, { uid: 'id-1', invocation: invocation(a) });
    assert.deepEqual(r, {
      uid: 'id-1',
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      requestKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
      requestSubResource: 'scale',
      name: 'web',
      namespace: 'ns',
      operation: 'UPDATE',
      userInfo: { username: 'alice', uid: 'u1', groups: ['devs'], extra: { scopes: ['x'] } },
      object: a.object,
      oldObject: { metadata: {} },
      dryRun: true,
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] },
    });
    // The options as sent, in their Go struct's order, with nothing else.
    const del = attrs({
      operation: 'DELETE',
      object: null,
      dryRun: true,
      options: {
        dryRun: ['All'],
        propagationPolicy: 'Foreground',
        preconditions: { uid: 'u' },
        gracePeriodSeconds: 0,
        force: true,
      } as VerbOptions,
    });
    assert.equal(
      JSON.stringify(admissionRequest(del, { uid: 'id-3', invocation: invocation(del) })['options']),
      '{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1","gracePeriodSeconds":0,"preconditions":{"uid":"u"},"propagationPolicy":"Foreground","dryRun":["All"]}',
    );
    const cluster = attrs({ namespace: '', name: '', operation: 'CONNECT' });
    const c = admissionRequest(cluster, { uid: 'id-2', invocation: invocation(cluster) });
    assert.equal('namespace' in c, false);
    assert.equal('name' in c, false);
    assert.equal(c['options'], null);
  });

  it('answers are checked for their uid, kind and patch fields (v1), and taken as they are (v1beta1)', () => {
    const opts = { uid: 'id', mutating: false, version: 'v1' } as const;
    const review = (response: unknown, kind = 'AdmissionReview', apiVersion = 'admission.k8s.io/v1') => ({
      apiVersion,
      kind,
      response,
    });
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    assert.equal(
      error(() => verifyAdmissionResponse({}, opts)),
      'webhook response was absent',
    );
    assert.equal(
      error(() => verifyAdmissionResponse(review({ uid: 'other', allowed: true }), opts)),
      'expected response.uid="id", got "other"',
    );
    assert.equal(
      error(() => verifyAdmissionResponse(review({ uid: 'id', allowed: true }, 'Other', 'v1'), opts)),
      'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /v1, Kind=Other',
    );
    assert.equal(
      error(() => verifyAdmissionResponse(review({ uid: 'id', allowed: true, patch: 'W10=' }), opts)),
      'validating webhook may not return response.patch',
    );
    const mutating = { ...opts, mutating: true };
    assert.equal(
      error(() => verifyAdmissionResponse(review({ uid: 'id', allowed: true, patch: 'W10=' }), mutating)),
      'webhook returned response.patch but not response.patchType',
    );
    assert.equal(
      error(() =>
        verifyAdmissionResponse(review({ uid: 'id', allowed: true, patchType: 'JSONPatch' }), mutating),
      ),
      'webhook returned response.patchType but not response.patch',
    );
    const ok = verifyAdmissionResponse(
      review({
        uid: 'id',
        allowed: true,
        patch: 'W10=',
        patchType: 'JSONPatch',
        warnings: ['w'],
        auditAnnotations: { k: 'v' },
      }),
      mutating,
    );
    assert.equal(ok.patch.toString(), '[]');
    assert.deepEqual(ok.warnings, ['w']);
    assert.deepEqual(ok.auditAnnotations, { k: 'v' });
    const beta = verifyAdmissionResponse(review({ allowed: false }, 'Nope', 'x/y'), {
      ...opts,
      version: 'v1beta1',
    });
    assert.equal(beta.allowed, false);
  });

  it('denials carry who denied, the webhook’s message or reason, and a code of at least 400', () => {
    const m = toStatusErr('a.example.com', { message: 'no', code: 403, reason: 'Forbidden' });
    assert.equal(m.message, 'admission webhook "a.example.com" denied the request: no');
    assert.equal(m.code, 403);
    assert.equal(m.reason, 'Forbidden');
    assert.equal(
      toStatusErr('a', { reason: 'Because' }).message,
      'admission webhook "a" denied the request: Because',
    );
    const bare = toStatusErr('a', undefined);
    assert.equal(bare.message, 'admission webhook "a" denied the request without explanation');
    assert.equal(bare.code, 400);
    assert.equal(toStatusErr('a', { code: 200 }).code, 400);
    assert.equal(bare.status.status, 'Failure');
  });
});

describe('JSON patch', () => {
  const doc = { metadata: { labels: { 'a/b': '1' } }, list: [1, 2, 3] };
  const apply = (ops: unknown[]) =>
    applyWebhookPatchWithText(doc, decodeJSONPatch(Buffer.from(JSON.stringify(ops)))).value;

  it('adds, removes, replaces, moves, copies and tests, with ~1 and ~0 escapes, leaving the input alone', () => {
    assert.deepEqual(
      apply([
        { op: 'add', path: '/metadata/labels/c', value: '2' },
        { op: 'remove', path: '/metadata/labels/a~1b' },
        { op: 'add', path: '/list/1', value: 9 },
        { op: 'add', path: '/list/-', value: 4 },
        { op: 'replace', path: '/list/0', value: 0 },
        { op: 'copy', from: '/metadata/labels/c', path: '/copied' },
        { op: 'move', from: '/copied', path: '/moved' },
        { op: 'test', path: '/moved', value: '2' },
      ]),
      { metadata: { labels: { c: '2' } }, list: [0, 9, 2, 3, 4], moved: '2' },
    );
    assert.deepEqual(doc, { metadata: { labels: { 'a/b': '1' } }, list: [1, 2, 3] });
  });

  it('refuses missing paths, bad indexes, failed tests and unknown operations', () => {
    // evanphx/json-patch v4's own messages, which kube quotes in its Internal error.
    assert.throws(() => apply([{ op: 'remove', path: '/nope' }]), {
      message: "error in remove for path: '/nope': Unable to remove nonexistent key: nope: missing value",
    });
    assert.throws(() => apply([{ op: 'remove', path: '/no/pe' }]), {
      message: 'remove operation does not apply: doc is missing path: "/no/pe": missing value',
    });
    assert.throws(() => apply([{ op: 'add', path: '/list/7', value: 1 }]), /invalid index/);
    assert.throws(() => apply([{ op: 'test', path: '/list/0', value: 5 }]), {
      message: 'testing value /list/0 failed: test failed',
    });
    assert.throws(() => apply([{ op: 'frob', path: '/x' }]), { message: 'Unexpected kind: frob' });
    assert.throws(() => decodeJSONPatch(Buffer.from('{}')), /cannot unmarshal/);
  });

  it('treats keys named like Object.prototype members as map keys (kube: a Go map key like any other)', () => {
    const out = apply([
      { op: 'add', path: '/metadata/labels/__proto__', value: 'x' },
      { op: 'add', path: '/metadata/labels/constructor', value: 'y' },
      { op: 'add', path: '/spec', value: JSON.parse('{"__proto__":{"polluted":"yes"}}') as unknown },
      { op: 'add', path: '/spec/__proto__/x', value: '1' },
      { op: 'replace', path: '/metadata/labels/__proto__', value: 'z' },
      { op: 'test', path: '/metadata/labels/__proto__', value: 'z' },
    ]) as Record<string, unknown>;
    assert.deepEqual(out['metadata'], JSON.parse('{"labels":{"a/b":"1","__proto__":"z","constructor":"y"}}'));
    assert.equal(JSON.stringify(out['spec']), '{"__proto__":{"polluted":"yes","x":"1"}}');
    assert.throws(() => apply([{ op: 'remove', path: '/metadata/labels/toString' }]), /nonexistent key/);
    assert.throws(
      () => apply([{ op: 'add', path: '/metadata/__proto__/x', value: 1 }]),
      /doc is missing path/,
    );
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });
});

/** A poster answering each webhook (by URL path) with the function given, recording the calls. */
function fakePoster(answers: Record<string, (review: { request: Record<string, unknown> }) => unknown>) {
  const calls: { path: string; review: { request: Record<string, unknown> } }[] = [];
  const poster: WebhookPoster = {
    post(_ctx: RequestContext, call: WebhookCall) {
      const path = new URL(call.clientConfig.url ?? '').pathname;
      const review = JSON.parse(call.body.toString()) as { request: Record<string, unknown> };
      calls.push({ path, review });
      const answer = answers[path];
      if (answer === undefined) return Promise.reject(new Error('Post "x": connection refused'));
      return Promise.resolve({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: answer(review),
      });
    },
    close: () => undefined,
  };
  return { poster, calls };
}

const hookOf = (name: string, over: Partial<MutatingWebhook> = {}) =>
  webhookAccessor(name, 0, {
    name: `${name}.example.com`,
    clientConfig: { url: `https://hooks/${name}` },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...over,
  });

const allowed = (review: { request: Record<string, unknown> }, extra = {}) => ({
  uid: review.request['uid'],
  allowed: true,
  ...extra,
});
const patched = (review: { request: Record<string, unknown> }, ops: unknown[]) =>
  allowed(review, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

async function statusOf(p: Promise<void>) {
  try {
    await p;
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    return { code: err.code, message: err.message };
  }
  return undefined;
}

/** A create of a Pod of one container, as the plugins are given it. */
const podCreate = () =>
  attrs({
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    },
  });

describe('the webhook plugins', () => {
  const namespaceLabels = () => Promise.resolve({});
  const ctx = internalContext();

  it('handle nothing while no webhook is configured', () => {
    const { poster } = fakePoster({});
    const plugin = new ValidatingAdmissionWebhook({
      source: staticWebhookSource([]),
      client: poster,
      namespaceLabels,
    });
    assert.equal(plugin.handles('CREATE'), false);
  });

  it('refuse a dry run to a webhook with side effects, with kube’s 400', async () => {
    const { poster, calls } = fakePoster({ '/fx': (r) => allowed(r) });
    const source = staticWebhookSource([hookOf('fx', { sideEffects: 'Some' })]);
    const plugin = new ValidatingAdmissionWebhook({ source, client: poster, namespaceLabels });
    assert.deepEqual(await statusOf(plugin.validate(ctx, attrs({ dryRun: true }))), {
      code: 400,
      message: 'admission webhook "fx.example.com" does not support dry run',
    });
    assert.equal(calls.length, 0);
    assert.equal(await statusOf(plugin.validate(ctx, attrs())), undefined);
  });

  it('validate with every webhook at once: a denial wins over an ignored failure', async () => {
    const { poster, calls } = fakePoster({
      '/no': (r) => ({ ...allowed(r), allowed: false, status: { message: 'nope' } }),
    });
    const source = staticWebhookSource([hookOf('down', { failurePolicy: 'Ignore' }), hookOf('no')]);
    const plugin = new ValidatingAdmissionWebhook({ source, client: poster, namespaceLabels });
    assert.deepEqual(await statusOf(plugin.validate(ctx, attrs())), {
      code: 400,
      message: 'admission webhook "no.example.com" denied the request: nope',
    });
    assert.equal(calls.length, 2);
    const failing = new ValidatingAdmissionWebhook({
      source: staticWebhookSource([hookOf('down')]),
      client: poster,
      namespaceLabels,
    });
    assert.deepEqual(await statusOf(failing.validate(ctx, attrs())), {
      code: 500,
      message:
        'Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "x": connection refused',
    });
  });

  it('apply patches in order and call an IfNeeded webhook again when a later one changed the object', async () => {
    const { poster, calls } = fakePoster({
      '/first': (r) => patched(r, [{ op: 'add', path: '/metadata/labels/first', value: 'seen' }]),
      '/second': (r) => patched(r, [{ op: 'add', path: '/metadata/labels/second', value: 'yes' }]),
    });
    const source = staticWebhookSource([
      hookOf('first', { reinvocationPolicy: 'IfNeeded' }),
      hookOf('second'),
    ]);
    const plugin = new MutatingAdmissionWebhook({ source, client: poster, namespaceLabels });
    const a = attrs();
    const object = a.object;
    await plugin.admit(ctx, a);
    assert.equal(a.object, object);
    assert.deepEqual(a.object?.metadata?.labels, { a: '1', first: 'seen', second: 'yes' });
    assert.deepEqual(
      calls.map((c) => c.path),
      ['/first', '/second', '/first'],
    );
  });

  it('refuse a patch on a DELETE and a patch type other than JSONPatch', async () => {
    const { poster } = fakePoster({
      '/del': (r) => patched(r, [{ op: 'add', path: '/x', value: 1 }]),
      '/odd': (r) =>
        allowed(r, {
          patchType: 'Merge',
          patch: Buffer.from('[{"op":"add","path":"/x","value":1}]').toString('base64'),
        }),
    });
    const del = new MutatingAdmissionWebhook({
      source: staticWebhookSource([hookOf('del')]),
      client: poster,
      namespaceLabels,
    });
    assert.deepEqual(await statusOf(del.admit(ctx, attrs({ operation: 'DELETE', object: null }))), {
      code: 500,
      message:
        'Internal error occurred: admission webhook "del.example.com" attempted to modify the object, which is not supported for this operation',
    });
    const odd = new MutatingAdmissionWebhook({
      source: staticWebhookSource([hookOf('odd')]),
      client: poster,
      namespaceLabels,
    });
    assert.deepEqual(await statusOf(odd.admit(ctx, attrs())), {
      code: 500,
      message:
        'Internal error occurred: failed calling webhook "odd.example.com": unsupported patch type "Merge"',
    });
  });
  it('decode and default a patched built-in object as its type: an injected container gets its defaults', async () => {
    const { poster } = fakePoster({
      '/inject': (r) =>
        patched(r, [
          { op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'busybox', bogus: 1 } },
        ]),
    });
    const plugin = new MutatingAdmissionWebhook({
      source: staticWebhookSource([hookOf('inject')]),
      client: poster,
      namespaceLabels,
    });
    const pod = podCreate();
    await plugin.admit(ctx, pod);
    const containers = (pod.object as { spec: { containers: Record<string, unknown>[] } }).spec.containers;
    const sidecar = containers[1] ?? {};
    assert.equal(sidecar['name'], 'sidecar');
    assert.equal(sidecar['terminationMessagePath'], '/dev/termination-log');
    assert.equal(sidecar['terminationMessagePolicy'], 'File');
    assert.equal('bogus' in sidecar, false);
  });
  it('decode a patch’s numbers as the webhook wrote them: an integer’s 1.0 refused, a Quantity’s 1e3 kept', async () => {
    const raw = (r: { request: Record<string, unknown> }, ops: string) =>
      allowed(r, { patchType: 'JSONPatch', patch: Buffer.from(ops).toString('base64') });
    const { poster } = fakePoster({
      '/limits': (r) =>
        raw(r, '[{"op":"add","path":"/spec/containers/0/resources","value":{"limits":{"cpu":1e3}}}]'),
      '/priority': (r) => raw(r, '[{"op":"add","path":"/spec/priority","value":1.0}]'),
    });
    const plugin = (name: string) =>
      new MutatingAdmissionWebhook({
        source: staticWebhookSource([hookOf(name)]),
        client: poster,
        namespaceLabels,
      });
    const limited = podCreate();
    await plugin('limits').admit(ctx, limited);
    const containers = (limited.object as { spec: { containers: { resources?: unknown }[] } }).spec
      .containers;
    assert.deepEqual(containers[0]?.resources, { limits: { cpu: '1e3' } });
    assert.deepEqual(await statusOf(plugin('priority').admit(ctx, podCreate())), {
      code: 500,
      message:
        'Internal error occurred: json: cannot unmarshal number 1.0 into Go struct field PodSpec.spec.priority of type int32',
    });
  });
  it('in a chain: a webhook’s change runs the built-ins again, and an IfNeeded webhook after their change', async () => {
    const { poster, calls } = fakePoster({
      '/sidecar': (r) => {
        const labels = (r.request['object'] as KubeObject).metadata?.labels ?? {};
        return labels['sidecar'] === undefined
          ? patched(r, [{ op: 'add', path: '/metadata/labels/sidecar', value: 'injected' }])
          : allowed(r);
      },
    });
    const webhook = new MutatingAdmissionWebhook({
      source: staticWebhookSource([hookOf('sidecar', { reinvocationPolicy: 'IfNeeded' })]),
      client: poster,
      namespaceLabels,
    });
    let builtinRuns = 0;
    const builtin: MutationInterface = {
      handles: () => true,
      admit: (_ctx, a) => {
        builtinRuns++;
        const labels = (a.object?.metadata ?? {}).labels ?? {};
        // Like ServiceAccount admission mounting the token into an injected container.
        if (labels['sidecar'] !== undefined) labels['mounted'] = 'yes';
        return Promise.resolve();
      },
    };
    const chain = new AdmissionChain([
      { name: 'Builtin', plugin: builtin },
      { name: 'MutatingAdmissionWebhook', plugin: webhook },
    ]);
    const a = attrs();
    await chain.admit(ctx, a);
    assert.equal(builtinRuns, 2);
    assert.deepEqual(a.object?.metadata?.labels, { a: '1', sidecar: 'injected', mounted: 'yes' });
    assert.deepEqual(
      calls.map((c) => c.path),
      ['/sidecar', '/sidecar'],
    );
    // Without a webhook change there is one run.
    builtinRuns = 0;
    const plain = attrs({ object: { metadata: { name: 'x', labels: { sidecar: 'already' } } } });
    await chain.admit(ctx, plain);
    assert.equal(builtinRuns, 1);
  });
});
