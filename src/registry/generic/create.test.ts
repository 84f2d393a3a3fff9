import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from './store.js';
import { rejectsWithStatus } from './testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from './testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget, type Widget } from './testing/widgets.js';

describe('Store.create', () => {
  let env: MemoryRESTOptions;
  let store: Store<Widget>;
  before(async () => {
    env = await memoryRESTOptions();
    store = await newWidgetStore({ restOptions: env.getter });
  });
  after(() => env.close());

  it('fills system fields, runs prepare, and stores with a resourceVersion', async () => {
    const out = await store.create(testContext('ns'), widget('a'), { options: {} });
    const meta = out.metadata ?? {};
    assert.match(meta.uid ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(meta.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(meta.generation, 1);
    assert.equal(meta.namespace, 'ns');
    assert.match(meta.resourceVersion ?? '', /^[1-9]\d*$/);
    assert.deepEqual(out.status, { phase: 'Pending' });
    assert.equal(out.kind, 'Widget');
    const got = await store.get(testContext('ns'), 'a', {});
    assert.deepEqual(got, out);
  });

  it("prepares the caller's object in place, as kube's Store does: the caller hands it over", async () => {
    const input = widget('handed-over');
    const created = await store.create(testContext('ns'), input, { options: {} });
    const meta = input.metadata;
    assert.ok(meta !== undefined);
    assert.equal(meta.namespace, 'ns');
    assert.match(meta.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(created.metadata?.uid, meta.uid);
  });

  it('refuses a namespace that differs from the request', async () => {
    const obj = widget('b');
    obj.metadata = { name: 'b', namespace: 'other' };
    await rejectsWithStatus(store.create(testContext('ns'), obj, { options: {} }), {
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('answers AlreadyExists with kube text', async () => {
    await store.create(testContext('ns'), widget('dup'), { options: {} });
    const st = await rejectsWithStatus(store.create(testContext('ns'), widget('dup'), { options: {} }), {
      code: 409,
      reason: 'AlreadyExists',
      message: 'widgets.example.com "dup" already exists',
    });
    assert.deepEqual(st.details, { name: 'dup', group: 'example.com', kind: 'widgets' });
  });

  it('answers Invalid with field causes from the strategy first', async () => {
    const st = await rejectsWithStatus(
      store.create(testContext('ns'), widget('Bad_Name', { size: -1 }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          `Widget.example.com "Bad_Name" is invalid: [metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), ` +
          'spec.size: Invalid value: -1: must be greater than or equal to 0]',
      },
    );
    assert.deepEqual(
      st.details?.causes?.map((c) => c.field),
      ['metadata.name', 'spec.size'],
    );
  });

  it('requires a name or generateName', async () => {
    await rejectsWithStatus(store.create(testContext('ns'), { metadata: {} }, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Widget.example.com "" is invalid: metadata.name: Required value: name or generateName is required',
    });
  });

  it('generates names from generateName', async () => {
    const out = await store.create(
      testContext('ns'),
      { metadata: { generateName: 'gen-' }, spec: {} },
      { options: {} },
    );
    assert.match(out.metadata?.name ?? '', /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('retries generateName collisions, then reports the server could not pick a name', async () => {
    const names = ['taken', 'taken', 'free'];
    const gen = await newWidgetStore(
      { restOptions: env.getter },
      { nameGenerator: { generateName: (base) => base + (names.shift() ?? 'x') } },
    );
    await store.create(testContext('ns'), widget('g-taken'), { options: {} });
    const out = await gen.create(testContext('ns'), { metadata: { generateName: 'g-' } }, { options: {} });
    assert.equal(out.metadata?.name, 'g-free');

    const always = await newWidgetStore(
      { restOptions: env.getter },
      { nameGenerator: { generateName: () => 'g-taken' } },
    );
    const st = await rejectsWithStatus(
      always.create(testContext('ns'), { metadata: { generateName: 'g-' } }, { options: {} }),
      {
        code: 409,
        reason: 'AlreadyExists',
        message:
          'widgets.example.com "g-taken" already exists, the server was not able to generate a unique name for the object',
      },
    );
    assert.equal(st.details?.retryAfterSeconds, 1);
  });

  it('passes warnings to the request and admission a finished copy', async () => {
    const ctx = testContext('ns');
    let seen: unknown;
    await store.create(ctx, widget('warn', { size: 13 }), {
      options: {},
      validate: (_c, obj) => {
        seen = obj;
      },
    });
    assert.deepEqual(ctx.warnings, ['spec.size: 13 is unlucky']);
    assert.equal((seen as Widget).metadata?.namespace, 'ns');
  });

  it('lets admission failures through unchanged and writes nothing', async () => {
    const ctx = testContext('ns');
    const denial = new Error('denied');
    const validate = (): never => {
      throw denial;
    };
    await assert.rejects(
      store.create(ctx, widget('denied'), { options: {}, validate }),
      (err) => err === denial,
    );
    await rejectsWithStatus(store.get(ctx, 'denied', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets.example.com "denied" not found',
    });
  });

  it('dry run validates and answers but writes nothing', async () => {
    const before = await env.backend.currentRevision();
    const out = await store.create(testContext('ns'), widget('dry'), { options: { dryRun: ['All'] } });
    assert.equal(out.metadata?.name, 'dry');
    assert.equal(out.metadata.resourceVersion, undefined);
    assert.equal(await env.backend.currentRevision(), before);
    await rejectsWithStatus(store.get(testContext('ns'), 'dry', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets.example.com "dry" not found',
    });
    await store.create(testContext('ns'), widget('dry-dup'), { options: {} });
    await rejectsWithStatus(
      store.create(testContext('ns'), widget('dry-dup'), { options: { dryRun: ['All'] } }),
      {
        code: 409,
        reason: 'AlreadyExists',
      },
    );
  });

  it('refuses a resourceVersion with 400 and kube storage text, where kube answers 500', async () => {
    const w = widget('rv-set');
    w.metadata = { name: 'rv-set', resourceVersion: '5' };
    await rejectsWithStatus(store.create(testContext('ns'), w, { options: {} }), {
      code: 400,
      reason: 'BadRequest',
      message: 'resourceVersion should not be set on objects to be created',
    });
  });

  it('refuses a name that is not a path segment', async () => {
    await rejectsWithStatus(store.create(testContext('ns'), widget('a%b'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
    });
  });
});
