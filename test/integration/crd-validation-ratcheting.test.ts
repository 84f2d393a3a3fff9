// CRD validation ratcheting over HTTP (kube 1.33's CRDValidationRatcheting, on by default): once a
// CRD's schema is tightened, an update of a custom resource may keep the parts that no longer pass
// as long as it leaves them as they were, on the main resource and on /status; a changed part, an
// uncorrelatable item of an atomic list and a transition rule are still judged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { namespacedCRDOf } from './support/crd.js';
import { mergePatchCall, type JSONReply } from './support/json-call.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.ratchet.example.com';
const gadgets = '/apis/ratchet.example.com/v1/namespaces/default/gadgets';

type Reply = JSONReply;

const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
  mergePatchCall(server, { method, path, body });

const item = (max?: number): Record<string, unknown> => ({
  type: 'object',
  properties: {
    name: { type: 'string' },
    port: { type: 'integer', ...(max === undefined ? {} : { maximum: max }) },
  },
});

/** The version's schema: loose, or tightened on fields an existing object already holds. */
function version(tight: boolean): Record<string, unknown> {
  const t = <T>(v: T): T | Record<string, never> => (tight ? v : {});
  const spec = {
    type: 'object',
    properties: {
      other: { type: 'string' },
      name: { type: 'string', ...t({ maxLength: 5 }) },
      mode: { type: 'string', ...t({ enum: ['Fast', 'Slow'] }) },
      count: { type: 'integer', ...t({ maximum: 10 }) },
      code: { type: 'string', ...t({ pattern: '^[a-z]+$' }) },
      extra: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        ...t({ required: ['a'] }),
      },
      label: {
        type: 'string',
        ...t({
          'x-kubernetes-validations': [
            { rule: "self.startsWith('x-')", message: 'label must start with x-' },
          ],
        }),
      },
      level: {
        type: 'integer',
        ...t({
          'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'level may not decrease' }],
        }),
      },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: item(tight ? 100 : undefined),
      },
      hosts: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: item(tight ? 100 : undefined) },
    },
  };
  const status = {
    type: 'object',
    properties: { phase: { type: 'string', ...t({ pattern: '^[a-z]+$' }) }, note: { type: 'string' } },
  };
  return {
    name: 'v1',
    served: true,
    storage: true,
    subresources: { status: {} },
    schema: { openAPIV3Schema: { type: 'object', properties: { spec, status } } },
  };
}

const invalidNow = {
  other: 'a',
  name: 'much-too-long',
  mode: 'weird',
  count: 500,
  code: 'NOT-LOWER',
  extra: { b: 'x' },
  label: 'plain',
  level: 5,
  ports: [
    { name: 'a', port: 500 },
    { name: 'b', port: 1 },
  ],
  hosts: [
    { name: 'a', port: 500 },
    { name: 'b', port: 1 },
  ],
};

const patchSpec = (spec: Record<string, unknown>): Promise<Reply> => call('PATCH', `${gadgets}/g`, { spec });
const message = (r: Reply): string => String(r.body['message']);

describe('CRD validation ratcheting', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const names = { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' };
    const crd = namespacedCRDOf('ratchet.example.com', names, [version(false)]);
    const made = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const body = {
      apiVersion: 'ratchet.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g' },
      spec: invalidNow,
    };
    const created = await waitFor(
      'gadgets to be served',
      () => call('POST', gadgets, body),
      (r) => r.status !== 404,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const status = await call('PATCH', `${gadgets}/g/status`, { status: { phase: 'Weird', note: 'n' } });
    assert.equal(status.status, 200, JSON.stringify(status.body));

    const tightened = await call('PATCH', crdPath, { spec: { versions: [version(true)] } });
    assert.equal(tightened.status, 200, JSON.stringify(tightened.body));
    const probe = { ...body, metadata: { name: 'probe' } };
    await waitFor(
      'the tightened schema',
      () => call('POST', `${gadgets}?dryRun=All`, probe),
      (r) => r.status === 422,
    );
  });
  after(() => server.stop());

  it('lets an update that changes another field keep the now-invalid ones (a rule ratchets as a warning)', async () => {
    const res = await patchSpec({ other: 'b' });
    assert.equal(res.status, 200, message(res));
    // The header quotes the field error's text (kube's warning.AddWarning of the error).
    assert.match(res.warning, /^299 - "spec\.label: Invalid value: .*label must start with x-"$/);
  });

  it('refuses changing an invalid field to another invalid value, with kube messages', async () => {
    const count = await patchSpec({ count: 600 });
    assert.equal(count.status, 422);
    assert.match(
      message(count),
      /spec\.count: Invalid value: 600: spec\.count in body should be less than or equal to 10/,
    );
    const mode = await patchSpec({ mode: 'odd' });
    assert.match(message(mode), /spec\.mode: Unsupported value: "odd": supported values: "Fast", "Slow"/);
    const code = await patchSpec({ code: 'STILL-NOT' });
    assert.match(message(code), /spec\.code in body should match '\^\[a-z\]\+\$'/);
    // A required property (a keyword of its parent) is reported once the parent changes.
    const extra = await patchSpec({ extra: { b: 'y' } });
    assert.match(message(extra), /spec\.extra\.a: Required value/);
    const label = await patchSpec({ label: 'other' });
    assert.equal(label.status, 422);
    assert.match(message(label), /spec\.label: Invalid value: "string": label must start with x-/);
  });

  it('correlates list-type=map items by key: an unchanged invalid item ratchets, a changed one does not', async () => {
    const kept = await patchSpec({
      ports: [
        { name: 'b', port: 2 },
        { name: 'a', port: 500 },
      ],
    });
    assert.equal(kept.status, 200, message(kept));
    const changed = await patchSpec({
      ports: [
        { name: 'b', port: 2 },
        { name: 'a', port: 501 },
      ],
    });
    assert.equal(changed.status, 422);
    assert.match(
      message(changed),
      /spec\.ports\[1\]\.port: Invalid value: 501: .* less than or equal to 100/,
    );
  });

  it('does not ratchet an unchanged invalid item of an atomic list whose other item changed', async () => {
    const res = await patchSpec({
      hosts: [
        { name: 'a', port: 500 },
        { name: 'b', port: 2 },
      ],
    });
    assert.equal(res.status, 422);
    assert.match(message(res), /spec\.hosts\[0\]\.port: Invalid value: 500: .* less than or equal to 100/);
    // Only the list's error: the other now-invalid fields it left alone still ratchet.
    assert.doesNotMatch(message(res), /spec\.(count|name|mode|ports)/);
  });

  it('ratchets /status updates the same way', async () => {
    const kept = await call('PATCH', `${gadgets}/g/status`, { status: { note: 'm' } });
    assert.equal(kept.status, 200, message(kept));
    const changed = await call('PATCH', `${gadgets}/g/status`, { status: { phase: 'Odd' } });
    assert.equal(changed.status, 422);
    // status is validated on its own (kube's status schema validator): the text names the path from it.
    assert.match(message(changed), /status\.phase: Invalid value: "Odd": phase in body should match/);
  });

  it('never ratchets a transition rule (oldSelf)', async () => {
    const res = await patchSpec({ level: 4 });
    assert.equal(res.status, 422);
    assert.match(message(res), /spec\.level: Invalid value: "integer": level may not decrease/);
    const up = await patchSpec({ level: 6 });
    assert.equal(up.status, 200, message(up));
  });
});
