// Who owns the replicas of an object scaled through its scale subresource, over HTTP (kube's
// test/integration/apiserver/apply/scale_test.go flow): a scale takes spec.replicas from the
// manager that applied it, so applying the old count again conflicts, a forced apply takes it
// back, an apply of the Scale itself conflicts with the parent's applier, a PUT of the Scale takes
// it, an apply of the same count co-owns it, and a status-only patch of the Scale owns nothing.
// Each workload kind with a scale subresource, and a custom resource's specReplicasPath.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { jsonCall, type JSONReply } from './support/json-call.js';
import { waitFor } from './support/wait-for.js';

interface Entry {
  manager?: string;
  operation?: string;
  subresource?: string;
  time?: string;
  apiVersion?: string;
  fieldsV1?: Record<string, unknown>;
}
type Reply = JSONReply<{ spec?: Record<string, unknown>; metadata?: { managedFields?: Entry[] } }>;

let server: CapstanServer;

const call = (req: { method: string; path: string; body?: unknown; contentType?: string }): Promise<Reply> =>
  jsonCall(server, req);
const apply = (path: string, body: unknown): Promise<Reply> =>
  call({ method: 'PATCH', path, body, contentType: 'application/apply-patch+yaml' });
const merge = (path: string, body: unknown): Promise<Reply> =>
  call({ method: 'PATCH', path, body, contentType: 'application/merge-patch+json' });

/** The managers whose entry owns the replicas field at `path` (`spec.replicas`). */
function replicasOwners(r: Reply, path: readonly string[]): string[] {
  return (r.body.metadata?.managedFields ?? [])
    .filter((e) => {
      let at: unknown = e.fieldsV1;
      for (const f of path) at = (at as Record<string, unknown> | undefined)?.[`f:${f}`];
      return at !== undefined;
    })
    .map((e) => e.manager ?? '')
    .sort();
}

const template = {
  metadata: { labels: { app: 'nginx' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] },
};

interface Case {
  readonly kind: string;
  readonly apiVersion: string;
  readonly collection: string;
  readonly spec: Record<string, unknown>;
  /** Where the replicas live in the parent. */
  readonly replicas: readonly string[];
}

const cases: readonly Case[] = [
  ...['Deployment', 'StatefulSet', 'ReplicaSet'].map((kind) => ({
    kind,
    apiVersion: 'apps/v1',
    collection: `/apis/apps/v1/namespaces/default/${kind.toLowerCase()}s`,
    spec: { replicas: 1, selector: { matchLabels: { app: 'nginx' } }, template },
    replicas: ['spec', 'replicas'],
  })),
  {
    kind: 'ReplicationController',
    apiVersion: 'v1',
    collection: '/api/v1/namespaces/default/replicationcontrollers',
    spec: { replicas: 1, selector: { app: 'nginx' }, template },
    replicas: ['spec', 'replicas'],
  },
  {
    kind: 'Scaler',
    apiVersion: 'scale.example.com/v1',
    collection: '/apis/scale.example.com/v1/namespaces/default/scalers',
    spec: { size: { count: 1 } },
    replicas: ['spec', 'size', 'count'],
  },
];

const scalerCRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'scalers.scale.example.com' },
  spec: {
    group: 'scale.example.com',
    scope: 'Namespaced',
    names: { plural: 'scalers', kind: 'Scaler' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'object', properties: { count: { type: 'integer' } } } },
              },
              status: { type: 'object', properties: { count: { type: 'integer' } } },
            },
          },
        },
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.size.count', statusReplicasPath: '.status.count' },
        },
      },
    ],
  },
};

const scaleBody = (replicas: number): unknown => ({
  kind: 'Scale',
  apiVersion: 'autoscaling/v1',
  metadata: { name: 'test', namespace: 'default' },
  spec: { replicas },
});

describe('managedFields of writes through the scale subresource', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const crd = await call({
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: scalerCRD,
    });
    assert.equal(crd.status, 201, JSON.stringify(crd.body));
    const scalers = '/apis/scale.example.com/v1/namespaces/default/scalers';
    await waitFor(
      'scalers served',
      () => call({ method: 'GET', path: scalers }),
      (r) => r.status === 200,
    );
  });
  after(async () => {
    await server.stop();
  });

  for (const c of cases) {
    it(`${c.kind}: a scale takes the replicas from their applier, as in kube's scale test`, async () => {
      const object = `${c.collection}/test`;
      const scale = `${object}/scale`;
      const body = { apiVersion: c.apiVersion, kind: c.kind, metadata: { name: 'test' }, spec: c.spec };
      const owners = async (): Promise<string[]> =>
        replicasOwners(await call({ method: 'GET', path: object }), c.replicas);
      const replicas = async (): Promise<unknown> => {
        let at: unknown = (await call({ method: 'GET', path: object })).body;
        for (const f of c.replicas) at = (at as Record<string, unknown>)[f];
        return at;
      };

      const created = await apply(`${object}?fieldManager=apply_test`, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(await owners(), ['apply_test']);

      const scaled = await merge(`${scale}?fieldManager=scale_test`, { spec: { replicas: 5 } });
      assert.equal(scaled.status, 200, JSON.stringify(scaled.body));
      assert.equal(scaled.body.metadata?.managedFields, undefined, 'the Scale answered has no managedFields');
      assert.equal(await replicas(), 5);
      assert.deepEqual(await owners(), ['scale_test']);
      const entry = (await call({ method: 'GET', path: object })).body.metadata?.managedFields?.find(
        (e) => e.manager === 'scale_test',
      );
      assert.deepEqual(
        { ...entry },
        {
          apiVersion: c.apiVersion,
          fieldsType: 'FieldsV1',
          fieldsV1: c.replicas.reduceRight<Record<string, unknown>>(
            (inner, f) => ({ [`f:${f}`]: inner }),
            {},
          ),
          manager: 'scale_test',
          operation: 'Update',
          subresource: 'scale',
        },
        'kube writes the entry of a new owner through the Scale without a time',
      );

      const again = await apply(`${object}?fieldManager=apply_test`, body);
      assert.equal(again.status, 409, JSON.stringify(again.body));

      const forced = await apply(`${object}?fieldManager=apply_test&force=true`, body);
      assert.equal(forced.status, 200, JSON.stringify(forced.body));
      assert.equal(await replicas(), 1);
      assert.deepEqual(await owners(), ['apply_test']);

      const scaleApply = await apply(`${scale}?fieldManager=apply_scale`, scaleBody(17));
      assert.equal(scaleApply.status, 409, JSON.stringify(scaleApply.body));
      assert.match(JSON.stringify(scaleApply.body), /apply_test/);

      const scaleForced = await apply(`${scale}?fieldManager=apply_scale&force=true`, scaleBody(17));
      assert.equal(scaleForced.status, 200, JSON.stringify(scaleForced.body));
      assert.equal(await replicas(), 17);
      assert.deepEqual(await owners(), ['apply_scale']);

      const replaced = await call({
        method: 'PUT',
        path: `${scale}?fieldManager=replace_test`,
        body: scaleBody(7),
      });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.equal(await replicas(), 7);
      assert.deepEqual(await owners(), ['replace_test']);

      const coOwned = await apply(`${scale}?fieldManager=co_owning_test`, scaleBody(7));
      assert.equal(coOwned.status, 200, JSON.stringify(coOwned.body));
      assert.deepEqual(await owners(), ['co_owning_test', 'replace_test']);

      const rescaled = await merge(`${scale}?fieldManager=scale_test`, { spec: { replicas: 5 } });
      assert.equal(rescaled.status, 200, JSON.stringify(rescaled.body));
      assert.equal(await replicas(), 5);
      assert.deepEqual(await owners(), ['scale_test']);
    });
  }

  it('a patch of the Scale that changes only its status owns nothing (TestScaleUpdateOnlyStatus)', async () => {
    const object = '/apis/apps/v1/namespaces/default/deployments/status-only';
    const body = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'status-only' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'nginx' } }, template },
    };
    assert.equal((await apply(`${object}?fieldManager=apply_test`, body)).status, 201);
    const patched = await merge(`${object}/scale?fieldManager=scale_test`, { status: { replicas: 42 } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const got = await call({ method: 'GET', path: object });
    assert.equal(got.body.spec?.['replicas'], 1);
    assert.deepEqual(replicasOwners(got, ['spec', 'replicas']), ['apply_test']);
    assert.deepEqual(
      (got.body.metadata?.managedFields ?? []).map((e) => e.manager),
      ['apply_test'],
      'no entry for a manager that changed nothing',
    );
  });

  it("a custom resource without replicas: its Scale shows 0, and a write must set them (kube's text)", async () => {
    const object = '/apis/scale.example.com/v1/namespaces/default/scalers/unsized';
    const created = await apply(`${object}?fieldManager=apply_test`, {
      apiVersion: 'scale.example.com/v1',
      kind: 'Scaler',
      metadata: { name: 'unsized' },
      spec: {},
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const got = await call({ method: 'GET', path: `${object}/scale` });
    assert.deepEqual(got.body.spec, {}, 'replicas 0, left out as Go leaves out an omitempty zero');
    const unset = await merge(`${object}/scale`, { status: { replicas: 1 } });
    assert.equal(unset.status, 400, JSON.stringify(unset.body));
    assert.equal(
      (unset.body as { message?: string }).message,
      'the spec replicas field ".spec.size.count" cannot be empty',
    );
    const set = await merge(`${object}/scale`, { spec: { replicas: 2 } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const after = await call({ method: 'GET', path: object });
    assert.deepEqual(after.body.spec, { size: { count: 2 } });
  });
});
