// Webhook matchPolicy against a Capstan in this process (a Node `https` webhook with its own CA):
// under Equivalent (the default) a webhook registered for widgets.conv.example.com/v1 is called for
// a write through v2, as v1 (kind, resource and object converted by the CRD's conversion webhook,
// requestKind v2), and a mutating one's patch is converted back; under Exact it is not called. The
// same for a built-in pair: an autoscaling/v1 webhook sees an autoscaling/v2 HPA as v1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';
import {
  allow,
  deny,
  patch,
  startWebhookServer,
  type AdmissionReviewIn,
  type WebhookServer,
} from './support/webhook-server.js';
import { convertWidget, widgetGroup as group } from './support/widget-conversion.js';

type Reply = { status: number; body: Record<string, unknown>; warning: string };
type Obj = Record<string, unknown> & { apiVersion: string; metadata: Record<string, unknown> };

const schema = (spec: Record<string, unknown>): Record<string, unknown> => ({
  openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } },
});

function widgetCRD(url: string, caBundle: string): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: schema({ host: { type: 'string' }, port: { type: 'integer' } }),
        },
        { name: 'v2', served: true, storage: false, schema: schema({ address: { type: 'string' } }) },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: ['v1'] },
      },
    },
  };
}

describe('webhook matchPolicy', () => {
  let server: CapstanServer;
  let hooks: WebhookServer;

  async function call(method: string, path: string, body?: unknown): Promise<Reply> {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      warning: res.headers.get('warning') ?? '',
    };
  }

  const widgets = (ns: string, version: string, rest = ''): string =>
    `/apis/${group}/${version}/namespaces/${ns}/widgets${rest}`;
  const widget = (version: 'v1' | 'v2', name: string, spec: Record<string, unknown>): Obj => ({
    apiVersion: `${group}/${version}`,
    kind: 'Widget',
    metadata: { name },
    spec,
  });

  /** A configuration of one webhook on `rule`, for namespace `ns` only. */
  async function configure(
    kind: 'validating' | 'mutating',
    ns: string,
    webhook: Record<string, unknown> & { name: string; rule: Record<string, unknown> },
  ): Promise<void> {
    const { rule, ...rest } = webhook;
    const r = await call('POST', `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration',
      metadata: { name: `${ns}-${webhook.name}` },
      webhooks: [
        {
          rules: [{ operations: ['CREATE', 'UPDATE'], ...rule }],
          namespaceSelector: { matchLabels: { case: ns } },
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          ...rest,
        },
      ],
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }

  async function namespace(name: string): Promise<void> {
    const r = await call('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { case: name } },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }

  const widgetRule = { apiGroups: [group], apiVersions: ['v1'], resources: ['widgets'] };

  before(async () => {
    hooks = await startWebhookServer();
    hooks.handle('/convert', (review) => {
      const req = review.request as unknown as { uid: string; desiredAPIVersion: string; objects: Obj[] };
      return {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: req.uid,
          result: { status: 'Success' },
          convertedObjects: req.objects.map((o) => convertWidget(o, req.desiredAPIVersion)),
        },
      };
    });
    // v1 widgets on port 666 are refused; the object must be the v1 one to be read.
    hooks.handle('/no-666', (review: AdmissionReviewIn) => {
      const spec = (review.request.object?.['spec'] ?? {}) as Record<string, unknown>;
      return spec['port'] === 666 ? deny(review, 'port 666 is not allowed') : allow(review);
    });
    hooks.handle('/deny', (review) => deny(review, 'exact webhook called'));
    hooks.handle('/tls-port', (review) =>
      patch(review, [
        { op: 'replace', path: '/spec/port', value: 8443 },
        {
          op: 'add',
          path: '/metadata/labels',
          value: { 'seen-as': String(review.request.object?.['apiVersion']).split('/')[1] },
        },
      ]),
    );
    hooks.handle('/hpa', (review) => allow(review));
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const r = await call(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      widgetCRD(hooks.url('/convert'), hooks.caBundle),
    );
    assert.equal(r.status, 201, JSON.stringify(r.body));
    for (const ns of ['equivalent', 'exact', 'mutating', 'hpa', 'policy']) await namespace(ns);
    await waitFor(
      'widgets served',
      () => call('GET', widgets('equivalent', 'v2')),
      (x) => x.status === 200,
    );
  });
  after(async () => {
    await server.stop();
    await hooks.close();
  });

  it('Equivalent: a v1 webhook is called for a v2 write, as v1 with the object converted', async () => {
    await configure('validating', 'equivalent', {
      name: 'no-666.example.com',
      rule: widgetRule,
      clientConfig: { url: hooks.url('/no-666'), caBundle: hooks.caBundle },
    });
    const denied = await waitFor(
      'the webhook in force',
      () =>
        call(
          'POST',
          `${widgets('equivalent', 'v2')}?dryRun=All`,
          widget('v2', 'probe', { address: 'a:666' }),
        ),
      (x) => x.status !== 201,
    );
    assert.equal(denied.status, 400);
    assert.equal(
      denied.body['message'],
      'admission webhook "no-666.example.com" denied the request: port 666 is not allowed',
    );
    const ok = await call('POST', widgets('equivalent', 'v2'), widget('v2', 'fine', { address: 'a:80' }));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const seen = hooks.received('/no-666').at(-1)?.request ?? assert.fail('not called');
    assert.deepEqual(seen['kind'], { group, version: 'v1', kind: 'Widget' });
    assert.deepEqual(seen['resource'], { group, version: 'v1', resource: 'widgets' });
    assert.deepEqual(seen['requestKind'], { group, version: 'v2', kind: 'Widget' });
    assert.deepEqual(seen['requestResource'], { group, version: 'v2', resource: 'widgets' });
    const object = seen['object'] as Obj;
    assert.equal(object.apiVersion, `${group}/v1`);
    assert.deepEqual(object['spec'], { host: 'a', port: 80 });
  });

  it('Exact: a v1 webhook is not called for a v2 write', async () => {
    await configure('validating', 'exact', {
      name: 'exact.example.com',
      rule: widgetRule,
      matchPolicy: 'Exact',
      clientConfig: { url: hooks.url('/deny'), caBundle: hooks.caBundle },
    });
    await waitFor(
      'the webhook in force',
      () =>
        call('POST', `${widgets('exact', 'v1')}?dryRun=All`, widget('v1', 'probe', { host: 'a', port: 1 })),
      (x) => x.status === 400,
    );
    const calls = hooks.received('/deny').length;
    const ok = await call('POST', widgets('exact', 'v2'), widget('v2', 'fine', { address: 'a:80' }));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(hooks.received('/deny').length, calls);
  });

  it('Equivalent mutating: the patch made to the v1 object reaches the v2 write', async () => {
    await configure('mutating', 'mutating', {
      name: 'tls-port.example.com',
      rule: widgetRule,
      clientConfig: { url: hooks.url('/tls-port'), caBundle: hooks.caBundle },
    });
    const created = await waitFor(
      'the webhook in force',
      () =>
        call('POST', `${widgets('mutating', 'v2')}?dryRun=All`, widget('v2', 'probe', { address: 'b:80' })),
      (x) => (x.body['spec'] as Record<string, unknown> | undefined)?.['address'] === 'b:8443',
    );
    assert.equal(created.status, 201);
    assert.equal(created.body['apiVersion'], `${group}/v2`);
    assert.deepEqual((created.body['metadata'] as Obj['metadata'])['labels'], { 'seen-as': 'v1' });
    const real = await call('POST', widgets('mutating', 'v2'), widget('v2', 'real', { address: 'c:80' }));
    assert.equal(real.status, 201, JSON.stringify(real.body));
    const stored = await call('GET', widgets('mutating', 'v1', '/real'));
    assert.deepEqual(stored.body['spec'], { host: 'c', port: 8443 });
  });

  it('Equivalent on built-ins: an autoscaling/v1 webhook sees an autoscaling/v2 HPA as v1', async () => {
    await configure('validating', 'hpa', {
      name: 'hpa.example.com',
      rule: { apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] },
      clientConfig: { url: hooks.url('/hpa'), caBundle: hooks.caBundle },
    });
    const hpa = (name: string) => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 3,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
        ],
      },
    });
    await waitFor(
      'the webhook called',
      async () => {
        await call(
          'POST',
          '/apis/autoscaling/v2/namespaces/hpa/horizontalpodautoscalers?dryRun=All',
          hpa('probe'),
        );
        return hooks.received('/hpa').length;
      },
      (n) => n > 0,
    );
    const seen = hooks.received('/hpa').at(-1)?.request ?? assert.fail('not called');
    assert.deepEqual(seen['kind'], { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
    assert.deepEqual(seen['requestKind'], {
      group: 'autoscaling',
      version: 'v2',
      kind: 'HorizontalPodAutoscaler',
    });
    const object = seen['object'] as Obj;
    assert.equal(object.apiVersion, 'autoscaling/v1');
    assert.equal((object['spec'] as Record<string, unknown>)['targetCPUUtilizationPercentage'], 70);
  });

  it('ValidatingAdmissionPolicy: Equivalent evaluates a v2 write as v1; Exact does not apply', async () => {
    const policy = (name: string, matchPolicy: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          matchPolicy,
          resourceRules: [{ operations: ['CREATE'], ...widgetRule }],
        },
        validations: [
          {
            expression: 'object.spec.port < 1000',
            messageExpression:
              "'port ' + string(object.spec.port) + ' as ' + request.kind.version + ' from ' + request.requestKind.version",
          },
        ],
      },
    });
    const binding = (name: string, action: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: {
        policyName: name,
        validationActions: [action],
        matchResources: { namespaceSelector: { matchLabels: { case: 'policy' } } },
      },
    });
    const base = '/apis/admissionregistration.k8s.io/v1';
    for (const [name, matchPolicy, action] of [
      ['widget-ports', 'Equivalent', 'Deny'],
      ['widget-ports-exact', 'Exact', 'Warn'],
    ] as const) {
      const p = await call('POST', `${base}/validatingadmissionpolicies`, policy(name, matchPolicy));
      assert.equal(p.status, 201, JSON.stringify(p.body));
      const b = await call('POST', `${base}/validatingadmissionpolicybindings`, binding(name, action));
      assert.equal(b.status, 201, JSON.stringify(b.body));
    }
    // Both apply to a v1 widget on a high port (the Exact one warns); only the Equivalent one to v2.
    await waitFor(
      'both policies in force',
      () =>
        call(
          'POST',
          `${widgets('policy', 'v1')}?dryRun=All`,
          widget('v1', 'probe', { host: 'a', port: 5000 }),
        ),
      (x) => x.status === 422 && x.warning.includes("'widget-ports-exact'"),
    );
    const denied = await waitFor(
      'the Equivalent policy denying a v2 write',
      () =>
        call('POST', `${widgets('policy', 'v2')}?dryRun=All`, widget('v2', 'probe', { address: 'a:5000' })),
      (x) => x.status === 422,
    );
    assert.equal(
      denied.body['message'],
      "widgets.conv.example.com \"probe\" is forbidden: ValidatingAdmissionPolicy 'widget-ports' with binding 'widget-ports' denied request: port 5000 as v1 from v2",
    );
    assert.equal(denied.warning, '');
  });
});
