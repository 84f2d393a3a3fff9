// A CustomResourceDefinition whose versions convert through a webhook (conversion strategy Webhook),
// called by a Capstan in this process: a Node `https` webhook with its own CA in caBundle, by URL.
// Widgets are stored at v1 ({host, port}) and served at v2 too ({address: "host:port"}): writes
// through v2 are converted before they are stored, reads of v2 after, a list in one review, watch
// events in order; a webhook that is down or answers wrongly gives kube's error texts.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { adminToken } from './support/https-call.js';
import { jsonCall, type JSONReply } from './support/json-call.js';
import { waitFor } from './support/wait-for.js';
import { startWebhookServer, type WebhookServer } from './support/webhook-server.js';
import { convertWidget, widgetGroup } from './support/widget-conversion.js';

type Reply = JSONReply;
type Obj = Record<string, unknown> & { apiVersion: string; metadata: Record<string, unknown> };
type ConversionRequest = { uid: string; desiredAPIVersion: string; objects: Obj[] };

const group = widgetGroup;
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(plural: string, kind: string, url: string, caBundle: string): Record<string, unknown> {
  const schema = (spec: Record<string, unknown>): Record<string, unknown> => ({
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: spec } },
    },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: schema({ host: { type: 'string' }, port: { type: 'integer' } }),
        },
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: schema({ address: { type: 'string', pattern: '^[^:]+:[0-9]+$' } }),
        },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: ['v1', 'v1beta1'] },
      },
    },
  };
}

describe('CRD conversion webhook', () => {
  let server: CapstanServer;
  let hooks: WebhookServer;
  let downPort = 0;
  /** What the webhook does now. */
  let mode: 'convert' | 'fail' | 'wrong-uid' | 'no-objects' = 'convert';
  const watches: AbortController[] = [];

  const call = (method: string, path: string, body?: unknown, contentType?: string): Promise<Reply> =>
    jsonCall(server, { method, path, body, ...(contentType === undefined ? {} : { contentType }) });

  const widgets = (version: string, rest = ''): string =>
    `/apis/${group}/${version}/namespaces/default/widgets${rest}`;
  const gadgets = (version: string, rest = ''): string =>
    `/apis/${group}/${version}/namespaces/default/gadgets${rest}`;
  const reviews = (): ConversionRequest[] =>
    hooks.received('/convert').map((r) => r.request as unknown as ConversionRequest);

  /** A port nothing listens on. */
  async function closedPort(): Promise<number> {
    const s = createServer().listen(0, '127.0.0.1');
    await once(s, 'listening');
    const port = (s.address() as { port: number }).port;
    await once(s.close(), 'close');
    return port;
  }

  before(async () => {
    hooks = await startWebhookServer();
    hooks.handle('/convert', (review) => {
      const req = review.request as unknown as ConversionRequest;
      const result =
        mode === 'fail'
          ? { status: 'Failure', message: 'widgets are not convertible today' }
          : { status: 'Success' };
      return {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: mode === 'wrong-uid' ? 'not-the-uid' : req.uid,
          result,
          convertedObjects:
            mode === 'no-objects' ? [] : req.objects.map((o) => convertWidget(o, req.desiredAPIVersion)),
        },
      };
    });
    downPort = await closedPort();
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    for (const body of [
      crd('widgets', 'Widget', hooks.url('/convert'), hooks.caBundle),
      crd('gadgets', 'Gadget', `https://127.0.0.1:${String(downPort)}/convert`, hooks.caBundle),
    ]) {
      const r = await call('POST', crdPath, body);
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    for (const path of [widgets('v2'), gadgets('v1')])
      await waitFor(
        `${path} served`,
        () => call('GET', path),
        (r) => r.status === 200,
      );
  });
  after(async () => {
    for (const w of watches) w.abort();
    await server.stop();
    await hooks.close();
  });

  it('creates through v2: stored at v1, answered at v2, readable at both', async () => {
    const before = reviews().length;
    const created = await call('POST', widgets('v2'), {
      apiVersion: `${group}/v2`,
      kind: 'Widget',
      metadata: { name: 'w1', labels: { a: 'b' } },
      spec: { address: 'example.org:8080' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body['apiVersion'], `${group}/v2`);
    assert.deepEqual(created.body['spec'], { address: 'example.org:8080' });
    const sent = reviews().slice(before);
    assert.deepEqual(sent.map((r) => r.desiredAPIVersion).slice(0, 1), [`${group}/v1`]);
    assert.ok(sent.every((r) => r.objects.length === 1));

    const v1 = await call('GET', widgets('v1', '/w1'));
    assert.equal(v1.status, 200);
    assert.equal(v1.body['apiVersion'], `${group}/v1`);
    assert.deepEqual(v1.body['spec'], { host: 'example.org', port: 8080 });
    const v2 = await call('GET', widgets('v2', '/w1'));
    assert.equal(v2.status, 200);
    assert.equal(v2.body['apiVersion'], `${group}/v2`);
    assert.deepEqual(v2.body['spec'], { address: 'example.org:8080' });
    // The webhook may not change identity, and the metadata is the stored one.
    assert.equal(
      (v2.body['metadata'] as Obj['metadata'])['uid'],
      (v1.body['metadata'] as Obj['metadata'])['uid'],
    );
  });

  it('validates a write through v2 against v2’s schema before converting it', async () => {
    const before = reviews().length;
    const r = await call('POST', widgets('v2'), {
      apiVersion: `${group}/v2`,
      kind: 'Widget',
      metadata: { name: 'bad' },
      spec: { address: 'no-port' },
    });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body['reason'], 'Invalid');
    assert.match(
      String(r.body['message']),
      /^Widget\.conv\.example\.com "bad" is invalid: spec\.address: Invalid value: "no-port"/,
    );
    assert.ok(
      reviews()
        .slice(before)
        .every((rv) => rv.desiredAPIVersion !== `${group}/v1`),
    );
  });

  it('lists at both versions, converting a list in one review', async () => {
    const r = await call('POST', widgets('v1'), {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'w2' },
      spec: { host: 'h2', port: 2 },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const before = reviews().length;
    const v2 = await call('GET', widgets('v2'));
    assert.equal(v2.status, 200, JSON.stringify(v2.body));
    assert.equal(v2.body['kind'], 'WidgetList');
    assert.equal(v2.body['apiVersion'], `${group}/v2`);
    const items = v2.body['items'] as Obj[];
    assert.deepEqual(
      items.map((i) => [i.apiVersion, i['spec']]),
      [
        [`${group}/v2`, { address: 'example.org:8080' }],
        [`${group}/v2`, { address: 'h2:2' }],
      ],
    );
    // (The garbage collector watches v2, the preferred version, too: its reviews come on their own.)
    const names = (r: ConversionRequest): unknown[] => r.objects.map((o) => o.metadata['name']);
    const sent = reviews().slice(before);
    assert.ok(
      sent.some((r) => JSON.stringify(names(r)) === '["w1","w2"]'),
      JSON.stringify(sent.map(names)),
    );
    const v1 = await call('GET', widgets('v1'));
    assert.deepEqual(
      (v1.body['items'] as Obj[]).map((i) => i.apiVersion),
      [`${group}/v1`, `${group}/v1`],
    );
    assert.ok(
      reviews()
        .slice(before)
        .every((r) => r.desiredAPIVersion === `${group}/v2`),
      'the storage version needs no webhook',
    );
  });

  it('a watch over v2 sees converted ADDED and MODIFIED events in order; patches go through v2', async () => {
    const list = await call('GET', widgets('v2'));
    const rv = String((list.body['metadata'] as Record<string, unknown>)['resourceVersion']);
    const abort = new AbortController();
    watches.push(abort);
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${widgets('v2')}?watch=1&resourceVersion=${rv}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    assert.equal(res.status, 200);
    const events: { type: string; object: Obj }[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buffered.slice(0, nl)) as { type: string; object: Obj });
          buffered = buffered.slice(nl + 1);
          if (events.length === 3) return;
        }
      }
    })();
    const created = await call('POST', widgets('v2'), {
      apiVersion: `${group}/v2`,
      kind: 'Widget',
      metadata: { name: 'w3' },
      spec: { address: 'h3:3' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const patched = await call(
      'PATCH',
      widgets('v2', '/w3'),
      { spec: { address: 'h3:33' } },
      'application/merge-patch+json',
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body['spec'], { address: 'h3:33' });
    const json = await call(
      'PATCH',
      widgets('v2', '/w3'),
      [{ op: 'replace', path: '/spec/address', value: 'h3:333' }],
      'application/json-patch+json',
    );
    assert.equal(json.status, 200, JSON.stringify(json.body));
    await reading;
    assert.deepEqual(
      events.map((e) => [e.type, e.object.apiVersion, e.object['spec']]),
      [
        ['ADDED', `${group}/v2`, { address: 'h3:3' }],
        ['MODIFIED', `${group}/v2`, { address: 'h3:33' }],
        ['MODIFIED', `${group}/v2`, { address: 'h3:333' }],
      ],
    );
    const stored = await call('GET', widgets('v1', '/w3'));
    assert.deepEqual(stored.body['spec'], { host: 'h3', port: 333 });
    abort.abort();
  });

  it('a webhook that is down gives kube’s error, code 500', async () => {
    const r = await call('POST', gadgets('v1'), {
      apiVersion: `${group}/v1`,
      kind: 'Gadget',
      metadata: { name: 'g1' },
      spec: { host: 'g', port: 1 },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const post = `Post "https://127.0.0.1:${String(downPort)}/convert?timeout=30s": dial tcp 127.0.0.1:${String(downPort)}: connect: connection refused`;
    const get = await call('GET', gadgets('v2', '/g1'));
    assert.equal(get.status, 500);
    assert.deepEqual(get.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `conversion webhook for ${group}/v1, Kind=Gadget failed: ${post}`,
      code: 500,
    });
    const create = await call('POST', gadgets('v2'), {
      apiVersion: `${group}/v2`,
      kind: 'Gadget',
      metadata: { name: 'g2' },
      spec: { address: 'g:2' },
    });
    assert.equal(create.status, 500);
    assert.equal(create.body['message'], `conversion webhook for ${group}/v2, Kind=Gadget failed: ${post}`);
    const list = await call('GET', gadgets('v2'));
    assert.equal(list.status, 500);
    assert.equal(list.body['message'], `conversion webhook for ${group}/v1, Kind=GadgetList failed: ${post}`);
    const v1 = await call('GET', gadgets('v1', '/g1'));
    assert.equal(v1.status, 200, 'the storage version is read without the webhook');
  });

  it('deletes through v2 (kube answers a Status for custom resources)', async () => {
    const r = await call('DELETE', widgets('v2', '/w2'));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body['kind'], 'Status');
    assert.equal(r.body['status'], 'Success');
    assert.equal((await call('GET', widgets('v2', '/w2'))).status, 404);
  });

  it('a watch whose event the webhook cannot convert ends with an ERROR event', async () => {
    const abort = new AbortController();
    watches.push(abort);
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${gadgets('v2')}?watch=1`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    const events = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: Record<string, unknown> });
    assert.deepEqual(
      events.map((e) => e.type),
      ['ERROR'],
    );
    const status = events[0]!.object;
    assert.equal(status['code'], 500);
    assert.match(
      String(status['message']),
      /^conversion webhook for conv\.example\.com\/v1, Kind=Gadget failed: Post /,
    );
  });

  it('a webhook that answers with a failure or wrongly gives kube’s error texts', async () => {
    try {
      mode = 'fail';
      const failed = await call('GET', widgets('v2', '/w1'));
      assert.equal(failed.status, 500);
      assert.equal(
        failed.body['message'],
        `conversion webhook for ${group}/v1, Kind=Widget failed: widgets are not convertible today`,
      );
      assert.equal(failed.body['reason'], undefined);
      mode = 'wrong-uid';
      const uid = await call('GET', widgets('v2', '/w1'));
      assert.match(
        String(uid.body['message']),
        /^conversion webhook for conv\.example\.com\/v1, Kind=Widget failed: expected response\.uid="[0-9a-f-]{36}", got "not-the-uid"$/,
      );
      mode = 'no-objects';
      const none = await call('GET', widgets('v2'));
      assert.equal(
        none.body['message'],
        `conversion webhook for ${group}/v1, Kind=WidgetList returned 0 objects, expected 2`,
      );
    } finally {
      mode = 'convert';
    }
  });
  it('warns of a v2 rule failure that an update through v2 leaves in place (ratcheting)', async () => {
    const body = (labels: Record<string, string>): Record<string, unknown> => ({
      apiVersion: `${group}/v2`,
      kind: 'Widget',
      metadata: { name: 'kept', labels },
      spec: { address: 'a.example:1' },
    });
    assert.equal((await call('POST', widgets('v2'), body({}))).status, 201);
    // v2 now asks for an address starting with b, which the stored widget lacks.
    const name = `widgets.${group}`;
    const current = (await call('GET', `${crdPath}/${name}`)).body as { spec: { versions: Obj[] } };
    const v2 = current.spec.versions.find((v) => v['name'] === 'v2') as Obj & {
      schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } };
    };
    v2.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [
      { rule: "self.address.startsWith('b')", message: 'address must start with b' },
    ];
    assert.equal((await call('PUT', `${crdPath}/${name}`, current)).status, 200);
    await waitFor(
      'the rule in force',
      () => call('POST', `${widgets('v2')}?dryRun=All`, { ...body({}), metadata: { name: 'probe' } }),
      (r) => r.status === 422,
    );
    const read = await call('GET', widgets('v2', '/kept'));
    const res = await fetch(`${server.url}${widgets('v2', '/kept')}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken(server)}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...read.body,
        metadata: { ...(read.body['metadata'] as object), labels: { a: 'b' } },
      }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.match(
      res.headers.get('warning') ?? '',
      /^299 - "spec: Invalid value: .*address must start with b"$/,
    );
  });
});
