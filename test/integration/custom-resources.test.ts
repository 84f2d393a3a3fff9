// Custom resources over HTTP: a CRD is served as soon as it is created (discovery, CRUD, watch,
// the status and scale subresources, schema validation, pruning and defaults, a second version
// served from the same storage), and its objects go when it is deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function call(
  server: CapstanServer,
  req: { method: string; path: string; body?: unknown; contentType?: string; accept?: string },
): Promise<Reply> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${req.path}`, {
    method: req.method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': req.contentType ?? 'application/json',
      ...(req.accept === undefined ? {} : { accept: req.accept }),
    },
    ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

const widgetSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'string', enum: ['small', 'large'] },
        replicas: { type: 'integer', minimum: 0, default: 1 },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
    status: {
      type: 'object',
      properties: { replicas: { type: 'integer' }, selector: { type: 'string' }, phase: { type: 'string' } },
    },
  },
};

// v1beta1 also knows a medium size: each version validates against its own schema.
const betaSchema = structuredClone(widgetSchema);
betaSchema.properties.spec.properties.size.enum.push('medium');

const widgetCRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: widgetSchema },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
        additionalPrinterColumns: [{ name: 'Size', type: 'string', jsonPath: '.spec.size' }],
        selectableFields: [{ jsonPath: '.spec.size' }],
      },
      { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: betaSchema } },
    ],
  },
};

const widget = (name: string, spec: Record<string, unknown>): unknown => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
});

const base = '/apis/example.com/v1/namespaces/default/widgets';

/** Polls `probe` until it returns a value (at most 10 s). */
async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const got = await probe();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached within 10 s');
}

describe('custom resources', () => {
  let server: CapstanServer;
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const created = await call(server, {
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: widgetCRD,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });
  after(async () => {
    await server.stop();
  });

  it('lists the resource in discovery right after the CRD is created', async () => {
    const list = await call(server, { method: 'GET', path: '/apis/example.com/v1' });
    assert.equal(list.status, 200);
    const resources = list.body.resources as {
      name: string;
      kind: string;
      namespaced: boolean;
      shortNames?: string[];
      verbs: string[];
    }[];
    const names = resources.map((r) => r.name).sort();
    assert.deepEqual(names, ['widgets', 'widgets/scale', 'widgets/status']);
    const main = resources.find((r) => r.name === 'widgets');
    assert.ok(main !== undefined);
    assert.equal(main.kind, 'Widget');
    assert.equal(main.namespaced, true);
    assert.deepEqual(main.shortNames, ['wd']);
    assert.ok(main.verbs.includes('watch'));
    const group = await call(server, { method: 'GET', path: '/apis/example.com' });
    assert.deepEqual(
      (group.body.versions as { version: string }[]).map((v) => v.version),
      ['v1', 'v1beta1'],
    );
    const groups = await call(server, { method: 'GET', path: '/apis' });
    assert.ok((groups.body.groups as { name: string }[]).some((g) => g.name === 'example.com'));
  });

  it('creates with defaults and pruning, reads back, and refuses invalid objects with 422', async () => {
    const created = await call(server, {
      method: 'POST',
      path: base,
      body: widget('w1', { size: 'small', unknownField: 'dropped' }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.spec, { size: 'small', replicas: 1 });
    assert.equal((created.body.metadata as { generation?: number }).generation, 1);
    assert.match(created.headers.get('warning') ?? '', /unknown field \\"spec\.unknownField\\"/);

    const read = await call(server, { method: 'GET', path: `${base}/w1` });
    assert.equal(read.status, 200);
    assert.equal(read.body.kind, 'Widget');

    const invalid = await call(server, {
      method: 'POST',
      path: base,
      body: widget('bad', { size: 'huge', replicas: 'three' }),
    });
    assert.equal(invalid.status, 422, JSON.stringify(invalid.body));
    assert.equal(invalid.body.reason, 'Invalid');
    const causes = (invalid.body.details as { causes: { field: string }[] }).causes.map((c) => c.field);
    assert.ok(causes.includes('spec.size'), JSON.stringify(causes));
    assert.ok(causes.includes('spec.replicas'), JSON.stringify(causes));

    const missing = await call(server, { method: 'POST', path: base, body: widget('none', {}) });
    assert.equal(missing.status, 422);

    const strict = await call(server, {
      method: 'POST',
      path: `${base}?fieldValidation=Strict`,
      body: widget('strict', { size: 'small', extra: 1 }),
    });
    assert.equal(strict.status, 400, JSON.stringify(strict.body));
    assert.match(String(strict.body.message), /strict decoding error: unknown field "spec.extra"/);

    const badName = await call(server, {
      method: 'POST',
      path: base,
      body: widget('Not_A_Name', { size: 'small' }),
    });
    assert.equal(badName.status, 422);
  });

  it('keeps status out of the main resource and spec out of /status', async () => {
    const created = await call(server, {
      method: 'POST',
      path: base,
      body: { ...(widget('w2', { size: 'large' }) as object), status: { phase: 'ignored' } },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.status, undefined);
    const withStatus = {
      ...created.body,
      spec: { size: 'small', replicas: 9 },
      status: { phase: 'Ready', replicas: 2, selector: 'app=w2' },
    };
    const updated = await call(server, { method: 'PUT', path: `${base}/w2/status`, body: withStatus });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.status, { phase: 'Ready', replicas: 2, selector: 'app=w2' });
    assert.equal((updated.body.spec as { size: string }).size, 'large');

    const scale = await call(server, { method: 'GET', path: `${base}/w2/scale` });
    assert.equal(scale.status, 200);
    assert.equal(scale.body.kind, 'Scale');
    assert.deepEqual(scale.body.status, { replicas: 2, selector: 'app=w2' });
    const scaled = await call(server, {
      method: 'PATCH',
      path: `${base}/w2/scale`,
      contentType: 'application/merge-patch+json',
      body: { spec: { replicas: 5 } },
    });
    assert.equal(scaled.status, 200, JSON.stringify(scaled.body));
    const after = await call(server, { method: 'GET', path: `${base}/w2` });
    assert.equal((after.body.spec as { replicas: number }).replicas, 5);
    assert.equal((after.body.metadata as { generation: number }).generation, 2);
  });

  it('patches with JSON, merge and apply patches but not strategic merge', async () => {
    await call(server, { method: 'POST', path: base, body: widget('w3', { size: 'small', tags: ['a'] }) });
    const merged = await call(server, {
      method: 'PATCH',
      path: `${base}/w3`,
      contentType: 'application/merge-patch+json',
      body: { spec: { tags: ['b', 'c'] } },
    });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.deepEqual((merged.body.spec as { tags: string[] }).tags, ['b', 'c']);
    const strategic = await call(server, {
      method: 'PATCH',
      path: `${base}/w3`,
      contentType: 'application/strategic-merge-patch+json',
      body: { spec: { size: 'large' } },
    });
    assert.equal(strategic.status, 415, JSON.stringify(strategic.body));
    // kube's words, naming the patch types a custom resource takes.
    assert.equal(
      strategic.body['message'],
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
    const applied = await call(server, {
      method: 'PATCH',
      path: `/apis/example.com/v1/namespaces/default/widgets/w4?fieldManager=test`,
      contentType: 'application/apply-patch+yaml',
      body: widget('w4', { size: 'large' }),
    });
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    const managers = (applied.body.metadata as { managedFields: { manager: string; operation: string }[] })
      .managedFields;
    assert.deepEqual(
      managers.map((m) => [m.manager, m.operation]),
      [['test', 'Apply']],
    );
  });

  it('serves the other version from the same storage', async () => {
    const old = await call(server, {
      method: 'GET',
      path: '/apis/example.com/v1beta1/namespaces/default/widgets/w1',
    });
    assert.equal(old.status, 200, JSON.stringify(old.body));
    assert.equal(old.body.apiVersion, 'example.com/v1beta1');
    const created = await call(server, {
      method: 'POST',
      path: '/apis/example.com/v1beta1/namespaces/default/widgets',
      body: {
        apiVersion: 'example.com/v1beta1',
        kind: 'Widget',
        metadata: { name: 'w5' },
        spec: { size: 'small' },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const asV1 = await call(server, { method: 'GET', path: `${base}/w5` });
    assert.equal(asV1.body.apiVersion, 'example.com/v1');

    const medium = (version: string): unknown => ({
      apiVersion: `example.com/${version}`,
      kind: 'Widget',
      metadata: { name: `medium-${version}` },
      spec: { size: 'medium' },
    });
    const beta = await call(server, {
      method: 'POST',
      path: '/apis/example.com/v1beta1/namespaces/default/widgets',
      body: medium('v1beta1'),
    });
    assert.equal(beta.status, 201, JSON.stringify(beta.body));
    const ga = await call(server, { method: 'POST', path: base, body: medium('v1') });
    assert.equal(ga.status, 422, JSON.stringify(ga.body));
  });

  it('fills defaults added to the CRD later into objects stored before', async () => {
    const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com';
    const crd = await call(server, { method: 'GET', path: crdPath });
    const spec = crd.body.spec as typeof widgetCRD.spec;
    const specSchema = spec.versions[0]?.schema.openAPIV3Schema.properties.spec as {
      properties: Record<string, unknown>;
    };
    specSchema.properties['color'] = { type: 'string', default: 'blue' };
    const updated = await call(server, { method: 'PUT', path: crdPath, body: crd.body });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const read = await eventually(async () => {
      const r = await call(server, { method: 'GET', path: `${base}/w1` });
      return (r.body.spec as { color?: string }).color === undefined ? undefined : r;
    });
    assert.equal((read.body.spec as { color: string }).color, 'blue');
  });

  it('answers kubectl get tables with the printer columns', async () => {
    const table = await call(server, {
      method: 'GET',
      path: base,
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    assert.equal(table.status, 200);
    assert.equal(table.body.kind, 'Table');
    const columns = (table.body.columnDefinitions as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns, ['Name', 'Size']);
  });

  it('selects by metadata fields and the selectable fields, refusing others', async () => {
    const small = await call(server, { method: 'GET', path: `${base}?fieldSelector=spec.size%3Dsmall` });
    assert.equal(small.status, 200, JSON.stringify(small.body));
    const sizes = (small.body.items as { spec: { size: string } }[]).map((i) => i.spec.size);
    assert.ok(sizes.length > 0);
    assert.deepEqual([...new Set(sizes)], ['small']);
    const named = await call(server, { method: 'GET', path: `${base}?fieldSelector=metadata.name%3Dw1` });
    assert.deepEqual(
      (named.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['w1'],
    );
    const unknown = await call(server, { method: 'GET', path: `${base}?fieldSelector=spec.replicas%3D1` });
    assert.equal(unknown.status, 400);
    assert.match(String(unknown.body.message), /"spec.replicas" is not a known field selector/);
  });

  it('answers malformed bodies with 400 Status errors, never a 500', async () => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const post = async (text: string, contentType = 'application/json'): Promise<Reply> => {
      const res = await fetch(`${server.url}${base}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body: text,
      });
      return {
        status: res.status,
        body: (await res.json()) as Record<string, unknown>,
        headers: res.headers,
      };
    };
    const cases: [string, string, RegExp][] = [
      ['{bad json', 'application/json', /couldn't get version\/kind; json parse error/],
      ['[1,2]', 'application/json', /cannot unmarshal array/],
      [
        '{"apiVersion":"example.com/v1","kind":"Widget","metadata":"x"}',
        'application/json',
        /Widget.metadata of type v1.ObjectMeta/,
      ],
      [
        '{"apiVersion":"other.example.com/v1","kind":"Gadget","metadata":{"name":"g"}}',
        'application/json',
        /the API version in the data \(other\.example\.com\/v1\) does not match the expected API version \(example\.com\/v1\)/,
      ],
      ['kind: [', 'application/yaml', /yaml|json/i],
    ];
    for (const [text, type, message] of cases) {
      const r = await post(text, type);
      assert.equal(r.status, 400, `${text}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.kind, 'Status');
      assert.match(String(r.body.message), message, text);
    }
    const protobuf = await post('x', 'application/vnd.kubernetes.protobuf');
    assert.equal(protobuf.status, 415);
  });

  it('returns 404 for a missing object and for a namespace that does not exist', async () => {
    const missing = await call(server, { method: 'GET', path: `${base}/nope` });
    assert.equal(missing.status, 404);
    assert.equal((missing.body.details as { group: string; kind: string }).kind, 'widgets');
    const noNamespace = await call(server, {
      method: 'POST',
      path: '/apis/example.com/v1/namespaces/absent/widgets',
      body: { ...(widget('x', { size: 'small' }) as object), metadata: { name: 'x', namespace: 'absent' } },
    });
    assert.equal(noNamespace.status, 404, JSON.stringify(noNamespace.body));
  });

  it('deletes a CRD through its cleanup finalizer: creates refused while its objects go', async () => {
    const held = await call(server, {
      method: 'POST',
      path: base,
      body: {
        ...(widget('held', { size: 'small' }) as object),
        metadata: { name: 'held', finalizers: ['example.com/hold'] },
      },
    });
    assert.equal(held.status, 201, JSON.stringify(held.body));
    const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com';
    const deleted = await call(server, { method: 'DELETE', path: crdPath });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const meta = deleted.body.metadata as { deletionTimestamp?: string; finalizers?: string[] };
    assert.ok(meta.deletionTimestamp !== undefined);
    assert.deepEqual(meta.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);

    // The held object keeps the CRD terminating: reads work, creates are refused.
    const terminating = await eventually(async () => {
      const r = await call(server, { method: 'POST', path: base, body: widget('late', { size: 'small' }) });
      return r.status === 405 ? r : undefined;
    });
    assert.equal(
      terminating.body.message,
      'create not allowed while custom resource definition is terminating',
    );
    const crd = await call(server, { method: 'GET', path: crdPath });
    assert.equal(crd.status, 200);
    // Its objects are being deleted: the held one is marked.
    await eventually(async () => {
      const r = await call(server, { method: 'GET', path: `${base}/held` });
      return (r.body.metadata as { deletionTimestamp?: string }).deletionTimestamp;
    });

    // Releasing it lets the objects and then the CRD go.
    const released = await call(server, {
      method: 'PATCH',
      path: `${base}/held`,
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    assert.equal(released.status, 200, JSON.stringify(released.body));
    await eventually(async () =>
      (await call(server, { method: 'GET', path: crdPath })).status === 404 ? true : undefined,
    );
    await eventually(async () =>
      (await call(server, { method: 'GET', path: base })).status === 404 ? true : undefined,
    );

    const again = await call(server, {
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: widgetCRD,
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    const list = await call(server, { method: 'GET', path: base });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.items, []);
  });
});
