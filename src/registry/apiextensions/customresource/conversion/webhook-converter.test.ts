import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta.js';
import { isStatusError } from '../../../../machinery/errors/index.js';
import { internalContext } from '../../../rest/context.js';
import type { WebhookCall, WebhookPoster } from '../../../webhook/client.js';
import { WebhookConverter, type ConversionInput } from './webhook-converter.js';

interface Sent {
  apiVersion: string;
  request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] };
}

/** A poster answering with `answer(review)`, keeping what it was sent. */
function poster(answer: (review: Sent) => unknown): WebhookPoster & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    post: (_ctx, call: WebhookCall) => {
      const review = JSON.parse(call.body.toString('utf8')) as Sent;
      sent.push(review);
      return Promise.resolve(answer(review));
    },
    close: () => undefined,
  };
}

const ok = (review: Sent, objects: unknown[]): unknown => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'ConversionReview',
  response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: objects },
});
const retag = (review: Sent): unknown[] =>
  review.request.objects.map((o) => ({ ...o, apiVersion: review.request.desiredAPIVersion }));

const obj = (name: string, apiVersion = 'x.io/v1'): KubeObject => ({
  apiVersion,
  kind: 'Thing',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { keep: 'me' }, resourceVersion: '5' },
});

const ctx = internalContext();
const clientConfig = { url: 'https://127.0.0.1:1/convert' };

async function failure(conv: WebhookConverter, input: ConversionInput): Promise<string> {
  try {
    await conv.convert(ctx, input);
  } catch (err) {
    assert.ok(isStatusError(err));
    assert.equal(err.code, 500);
    assert.equal(err.status.reason, undefined);
    return err.message;
  }
  return assert.fail('converted');
}

describe('WebhookConverter', () => {
  it('sends only the objects not at the desired version, in one review, and keeps the order', async () => {
    const p = poster((r) => ok(r, retag(r)));
    const conv = new WebhookConverter({
      clientConfig,
      conversionReviewVersions: ['v9', 'v1beta1', 'v1'],
      client: p,
    });
    const out = await conv.convert(ctx, {
      objects: [obj('a'), obj('b', 'x.io/v2'), obj('c')],
      to: 'x.io/v2',
      from: { apiVersion: 'x.io/v1', kind: 'ThingList' },
      list: true,
    });
    assert.deepEqual(
      out.map((o) => [o.metadata?.name, o.apiVersion]),
      [
        ['a', 'x.io/v2'],
        ['b', 'x.io/v2'],
        ['c', 'x.io/v2'],
      ],
    );
    assert.equal(p.sent.length, 1);
    const [review] = p.sent;
    assert.equal(review!.apiVersion, 'apiextensions.k8s.io/v1beta1');
    assert.deepEqual(
      review!.request.objects.map((o) => o.metadata?.name),
      ['a', 'c'],
    );
  });

  it('makes no call when nothing needs converting', async () => {
    const p = poster(() => assert.fail('called'));
    const conv = new WebhookConverter({ clientConfig, conversionReviewVersions: ['v1'], client: p });
    const out = await conv.convert(ctx, {
      objects: [obj('a', 'x.io/v2')],
      to: 'x.io/v2',
      from: { apiVersion: 'x.io/v2', kind: 'Thing' },
      list: false,
    });
    assert.equal(out[0]?.metadata?.name, 'a');
    assert.equal(p.sent.length, 0);
  });

  it('keeps the stored metadata but the webhook’s labels and annotations', async () => {
    const p = poster((r) =>
      ok(
        r,
        retag(r).map((o) => ({
          ...(o as KubeObject),
          metadata: {
            name: 'a',
            namespace: 'ns',
            uid: 'uid-a',
            labels: { new: 'one' },
            resourceVersion: '99',
          },
        })),
      ),
    );
    const conv = new WebhookConverter({ clientConfig, conversionReviewVersions: ['v1'], client: p });
    const [out] = await conv.convert(ctx, {
      objects: [obj('a')],
      to: 'x.io/v2',
      from: { apiVersion: 'x.io/v1', kind: 'Thing' },
      list: false,
    });
    assert.deepEqual(out?.metadata, {
      name: 'a',
      namespace: 'ns',
      uid: 'uid-a',
      labels: { new: 'one' },
      resourceVersion: '5',
    });
  });

  it('words failures as kube does', async () => {
    const single: ConversionInput = {
      objects: [obj('a')],
      to: 'x.io/v2',
      from: { apiVersion: 'x.io/v1', kind: 'Thing' },
      list: false,
    };
    const list: ConversionInput = {
      ...single,
      objects: [obj('a'), obj('b')],
      from: { apiVersion: 'x.io/v1', kind: 'ThingList' },
      list: true,
    };
    const conv = (answer: (r: Sent) => unknown): WebhookConverter =>
      new WebhookConverter({ clientConfig, conversionReviewVersions: ['v1'], client: poster(answer) });
    const down = new WebhookConverter({
      clientConfig,
      conversionReviewVersions: ['v1'],
      client: {
        post: () => Promise.reject(new Error('Post "https://127.0.0.1:1/convert?timeout=30s": boom')),
        close: () => undefined,
      },
    });
    assert.equal(
      await failure(down, single),
      'conversion webhook for x.io/v1, Kind=Thing failed: Post "https://127.0.0.1:1/convert?timeout=30s": boom',
    );
    assert.equal(
      await failure(
        conv((r) => ({ ...(ok(r, []) as object), kind: 'AdmissionReview' })),
        single,
      ),
      'conversion webhook for x.io/v1, Kind=Thing failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=AdmissionReview',
    );
    assert.equal(
      await failure(
        conv(() => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' })),
        single,
      ),
      'conversion webhook for x.io/v1, Kind=Thing failed: no response provided',
    );
    assert.equal(
      await failure(
        conv((r) => ({
          ...(ok(r, []) as object),
          response: { uid: r.request.uid, result: { status: 'Failure' } },
        })),
        single,
      ),
      "conversion webhook for x.io/v1, Kind=Thing failed: response.result.status was 'Failure', not 'Success'",
    );
    assert.equal(
      await failure(
        conv((r) => ok(r, retag(r).slice(1))),
        list,
      ),
      'conversion webhook for x.io/v1, Kind=ThingList returned 1 objects, expected 2',
    );
    assert.equal(
      await failure(
        conv((r) => ok(r, r.request.objects)),
        single,
      ),
      'conversion webhook for x.io/v1, Kind=Thing returned invalid object at index 0: invalid groupVersion (expected x.io/v2, received x.io/v1)',
    );
    assert.equal(
      await failure(
        conv((r) => ok(r, r.request.objects)),
        list,
      ),
      'conversion webhook for x.io/v1, Kind=ThingList returned invalid converted object at index 1: invalid groupVersion (expected x.io/v2, received x.io/v1)',
    );
    const renamed = (r: Sent): unknown[] =>
      retag(r).map((o) => ({
        ...(o as KubeObject),
        metadata: { ...(o as KubeObject).metadata, name: 'other' },
      }));
    assert.equal(
      await failure(
        conv((r) => ok(r, renamed(r))),
        single,
      ),
      'conversion webhook for x.io/v1, Kind=Thing returned invalid object: must have the same name: a != other',
    );
    const noMeta = (r: Sent): unknown[] =>
      retag(r).map((o) => ({ ...(o as KubeObject), metadata: undefined }));
    assert.equal(
      await failure(
        conv((r) => ok(r, noMeta(r))),
        single,
      ),
      'conversion webhook for x.io/v1, Kind=Thing returned invalid object: must have the same name: a != ',
    );
  });
});
