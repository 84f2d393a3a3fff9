// A custom resource's /status update over HTTP is validated as kube 1.33's statusStrategy does it:
// status alone against the schema's status part (ratcheting what it leaves unchanged), so a root
// `required: [spec]` or a spec that a tightened schema no longer accepts does not block it; the
// scale subresource's status replicas are checked; the CEL rules still run on the whole object.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { namespacedCRDOf } from './support/crd.js';
import { mergePatchCall, type JSONReply } from './support/json-call.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.statusval.example.com';
const sprockets = '/apis/statusval.example.com/v1/namespaces/default/sprockets';

type Reply = JSONReply;

const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
  mergePatchCall(server, { method, path, body });

/** PUT of the stored object with `status` in place of its own, to /status. */
async function putStatus(name: string, status: Record<string, unknown>): Promise<Reply> {
  const got = await call('GET', `${sprockets}/${name}`);
  assert.equal(got.status, 200, JSON.stringify(got.body));
  return call('PUT', `${sprockets}/${name}/status`, { ...got.body, status });
}

/** The version's schema: loose, or tightened on what the stored objects already hold. */
function version(tight: boolean): Record<string, unknown> {
  const t = <T>(v: T): T | Record<string, never> => (tight ? v : {});
  const spec = {
    type: 'object',
    properties: { size: { type: 'integer', ...t({ maximum: 5 }) } },
    ...t({ 'x-kubernetes-validations': [{ rule: 'self.size < 4', message: 'size must be below 4' }] }),
  };
  const status = {
    type: 'object',
    properties: {
      phase: { type: 'string', ...t({ pattern: '^[a-z]+$' }) },
      note: { type: 'string' },
      replicas: { type: 'integer' },
    },
  };
  return {
    name: 'v1',
    served: true,
    storage: true,
    subresources: {
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    },
    schema: {
      openAPIV3Schema: { type: 'object', ...t({ required: ['spec'] }), properties: { spec, status } },
    },
  };
}

const message = (r: Reply): string => String(r.body['message']);

async function create(name: string, spec: Record<string, unknown> | undefined): Promise<void> {
  const body = {
    apiVersion: 'statusval.example.com/v1',
    kind: 'Sprocket',
    metadata: { name },
    ...(spec === undefined ? {} : { spec }),
  };
  const made = await waitFor(
    'sprockets to be served',
    () => call('POST', sprockets, body),
    (r) => r.status !== 404,
  );
  assert.equal(made.status, 201, JSON.stringify(made.body));
}

describe('custom resource /status validation', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const names = { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket', listKind: 'SprocketList' };
    const crd = namespacedCRDOf('statusval.example.com', names, [version(false)]);
    const made = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    // Stored while the schema was looser: no spec, a spec now too big, a phase now invalid.
    await create('bare', undefined);
    await create('big', { size: 9 });
    await create('weird', undefined);
    const phase = await putStatus('weird', { phase: 'Weird', note: 'a' });
    assert.equal(phase.status, 200, message(phase));

    const tightened = await call('PATCH', crdPath, { spec: { versions: [version(true)] } });
    assert.equal(tightened.status, 200, JSON.stringify(tightened.body));
    const probe = { apiVersion: 'statusval.example.com/v1', kind: 'Sprocket', metadata: { name: 'probe' } };
    await waitFor(
      'the tightened schema',
      () => call('POST', `${sprockets}?dryRun=All`, probe),
      (r) => r.status === 422,
    );
  });
  after(() => server.stop());

  it('accepts a valid status change while spec is missing or now invalid (a spec rule warns)', async () => {
    const bare = await putStatus('bare', { phase: 'ready', note: 'b' });
    assert.equal(bare.status, 200, message(bare));
    assert.deepEqual(bare.body['status'], { phase: 'ready', note: 'b' });
    const big = await putStatus('big', { phase: 'ready' });
    assert.equal(big.status, 200, message(big));
    // The rule on the unchanged spec still runs: its failure ratchets to a warning.
    assert.match(big.warning, /^299 - "spec: Invalid value: .*size must be below 4"$/);
  });

  it('refuses an invalid status change with kube 422 and the field path under status', async () => {
    const res = await putStatus('weird', { phase: 'Odd', note: 'a' });
    assert.equal(res.status, 422);
    assert.equal(
      message(res),
      `Sprocket.statusval.example.com "weird" is invalid: status.phase: Invalid value: "Odd": phase in body should match '^[a-z]+$'`,
    );
    const details = res.body['details'] as { causes?: unknown[] };
    assert.deepEqual(details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "Odd": phase in body should match '^[a-z]+$'`,
        field: 'status.phase',
      },
    ]);
  });

  it('ratchets a status field the update leaves as it was though it is now invalid', async () => {
    const res = await putStatus('weird', { phase: 'Weird', note: 'c' });
    assert.equal(res.status, 200, message(res));
    assert.deepEqual(res.body['status'], { phase: 'Weird', note: 'c' });
  });

  it('checks the scale subresource status replicas', async () => {
    const res = await putStatus('bare', { replicas: -1 });
    assert.equal(res.status, 422);
    assert.equal(
      message(res),
      'Sprocket.statusval.example.com "bare" is invalid: .status.replicas: Invalid value: -1: should be a non-negative integer',
    );
  });
});
