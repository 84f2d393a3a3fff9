// CEL validation rules of custom resources over HTTP: a rule failing on create and an immutable
// field changed on update answer 422 with kube's Status causes, and a CRD whose rule does not
// compile, or whose rules' estimated cost is over kube's budgets, is refused with 422. Rules may
// use CEL's optional types. A rule past kube's per-call cost limit at run time answers 422.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { namespacedCRD } from './support/crd.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  server: CapstanServer,
  req: { method: string; path: string; body?: unknown },
): Promise<Reply> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${req.path}`, {
    method: req.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const base = '/apis/example.com/v1/namespaces/default/gadgets';

const gadgetCRD = (specRules: unknown[]): unknown =>
  namespacedCRD(
    'example.com',
    { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    {
      type: 'object',
      properties: {
        min: { type: 'integer' },
        max: { type: 'integer' },
        id: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'id is immutable' }],
        },
      },
      'x-kubernetes-validations': specRules,
    },
  );

async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const got = await probe();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached within 10 s');
}

const gadget = (spec: Record<string, unknown>, resourceVersion?: string): unknown => ({
  apiVersion: 'example.com/v1',
  kind: 'Gadget',
  metadata: { name: 'g1', ...(resourceVersion === undefined ? {} : { resourceVersion }) },
  spec,
});

describe('custom resource CEL rules', () => {
  let server: CapstanServer;
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('refuses a CRD whose rule does not compile', async () => {
    const res = await call(server, {
      method: 'POST',
      path: crdPath,
      body: gadgetCRD([{ rule: 'self.min <' }]),
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body['reason'], 'Invalid');
    const causes = (res.body['details'] as { causes: { reason: string; field: string; message: string }[] })
      .causes;
    assert.deepEqual(
      causes.map((c) => [c.reason, c.field]),
      [
        [
          'FieldValueInvalid',
          'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
        ],
      ],
    );
    assert.match(
      causes[0]?.message ?? '',
      /^Invalid value: apiextensions\.ValidationRule\{Rule:"self\.min <".*compilation failed: ERROR: <input>:1:10: Syntax error: /s,
    );
  });

  it('refuses a CRD whose rule nests deeper than the server evaluates, with 422 and not a 500', async () => {
    const res = await call(server, {
      method: 'POST',
      path: crdPath,
      body: gadgetCRD([{ rule: `self.min${' + 1'.repeat(20000)} > 0` }]),
    });
    assert.equal(res.status, 422, JSON.stringify(res.body).slice(0, 500));
    assert.match(String(res.body['message']), /Syntax error: expression recursion limit exceeded: 1000/);
  });

  it('refuses a CRD whose messageExpression has no cost bound, with the causes kube gives', async () => {
    // kubernetes/kubernetes#124234: string() of an integer has no size bound, so the message it
    // builds has none, and kube refuses the CRD.
    const res = await call(server, {
      method: 'POST',
      path: crdPath,
      body: namespacedCRD(
        'example.com',
        { plural: 'configs', singular: 'config', kind: 'Config' },
        {
          type: 'object',
          properties: {
            config: {
              type: 'object',
              'x-kubernetes-validations': [
                {
                  messageExpression: "'invalid attempts: ' + string(self.attempts)",
                  rule: 'self.attempts >= 0',
                },
              ],
              properties: { attempts: { type: 'integer', maximum: 2147483647, minimum: -2147483648 } },
            },
          },
        },
      ),
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    const advice =
      '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
    const at =
      'spec.validation.openAPIV3Schema.properties[spec].properties[config].x-kubernetes-validations[0]';
    assert.deepEqual((res.body['details'] as { causes: unknown[] }).causes, [
      {
        reason: 'FieldValueForbidden',
        message: `Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x ${advice}`,
        field: `${at}.messageExpression`,
      },
      {
        reason: 'FieldValueForbidden',
        message:
          'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        field: `${at}.messageExpression`,
      },
      {
        reason: 'FieldValueForbidden',
        message:
          'Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds ' +
          `budget by factor of more than 100x ${advice}`,
        field: 'spec.validation.openAPIV3Schema',
      },
    ]);
  });

  it('refuses a rule run once per item of an unbounded list, and takes it once the list is bounded', async () => {
    const crd = (maxItems: number | undefined): unknown =>
      namespacedCRD(
        'example.com',
        { plural: 'nets', singular: 'net', kind: 'Net' },
        {
          type: 'object',
          properties: {
            names: {
              type: 'array',
              ...(maxItems === undefined ? {} : { maxItems }),
              items: {
                type: 'string',
                maxLength: 64,
                'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]+$')" }],
              },
            },
          },
        },
      );
    const refused = await call(server, { method: 'POST', path: crdPath, body: crd(undefined) });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    // 53 a run (a string of up to 256 bytes against an 8-character pattern), 1,048,576 runs.
    assert.deepEqual((refused.body['details'] as { causes: unknown[] }).causes, [
      {
        reason: 'FieldValueForbidden',
        message:
          'Forbidden: estimated rule cost exceeds budget by factor of 5.6x (try simplifying the rule, or adding ' +
          'maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
        field:
          'spec.validation.openAPIV3Schema.properties[spec].properties[names].items.x-kubernetes-validations[0].rule',
      },
    ]);
    const taken = await call(server, { method: 'POST', path: crdPath, body: crd(1000) });
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
  });

  it('answers 422 with kube causes for a failing rule and a changed immutable field', async () => {
    const crd = await call(server, {
      method: 'POST',
      path: crdPath,
      body: gadgetCRD([{ rule: 'self.min <= self.max', message: 'min must not exceed max' }]),
    });
    assert.equal(crd.status, 201, JSON.stringify(crd.body));
    const bad = await eventually(async () => {
      const res = await call(server, {
        method: 'POST',
        path: base,
        body: gadget({ min: 3, max: 1, id: 'a' }),
      });
      return res.status === 404 ? undefined : res;
    });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal(
      bad.body['message'],
      'Gadget.example.com "g1" is invalid: spec: Invalid value: "object": min must not exceed max',
    );
    assert.deepEqual((bad.body['details'] as { causes: unknown[] }).causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "object": min must not exceed max',
        field: 'spec',
      },
    ]);

    const created = await call(server, {
      method: 'POST',
      path: base,
      body: gadget({ min: 1, max: 3, id: 'a' }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const rv = (created.body['metadata'] as { resourceVersion: string }).resourceVersion;
    const changed = await call(server, {
      method: 'PUT',
      path: `${base}/g1`,
      body: gadget({ min: 1, max: 3, id: 'b' }, rv),
    });
    assert.equal(changed.status, 422, JSON.stringify(changed.body));
    assert.deepEqual((changed.body['details'] as { causes: unknown[] }).causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "string": id is immutable', field: 'spec.id' },
    ]);
    const same = await call(server, {
      method: 'PUT',
      path: `${base}/g1`,
      body: gadget({ min: 2, max: 3, id: 'a' }, rv),
    });
    assert.equal(same.status, 200, JSON.stringify(same.body));
  });

  it('takes and runs rules written with CEL optional types, which kube 1.33 offers', async () => {
    const crd = await call(server, {
      method: 'POST',
      path: crdPath,
      body: namespacedCRD(
        'example.com',
        { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
        {
          type: 'object',
          properties: {
            max: { type: 'integer' },
            labels: {
              type: 'object',
              maxProperties: 8,
              additionalProperties: { type: 'string', maxLength: 16 },
            },
          },
          'x-kubernetes-validations': [
            { rule: 'self.?max.orValue(0) <= 10', message: 'max is at most 10' },
            { rule: "self.?labels[?'tier'].orValue('web') in ['web', 'db']", message: 'unknown tier' },
            {
              rule: '!oldSelf.?max.hasValue() || self.?max == oldSelf.?max',
              optionalOldSelf: true,
              message: 'max is immutable once set',
            },
          ],
        },
      ),
    });
    assert.equal(crd.status, 201, JSON.stringify(crd.body));
    const gizmos = '/apis/example.com/v1/namespaces/default/gizmos';
    const gizmo = (name: string, spec: Record<string, unknown>, resourceVersion?: string): unknown => ({
      apiVersion: 'example.com/v1',
      kind: 'Gizmo',
      metadata: { name, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
      spec,
    });
    const created = await eventually(async () => {
      const res = await call(server, { method: 'POST', path: gizmos, body: gizmo('g1', {}) });
      return res.status === 404 ? undefined : res;
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const refused = async (body: unknown, method = 'POST', path = gizmos): Promise<unknown> => {
      const res = await call(server, { method, path, body });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      return (res.body['details'] as { causes: { message: string }[] }).causes.map((c) => c.message);
    };
    assert.deepEqual(await refused(gizmo('g2', { max: 11 })), ['Invalid value: "object": max is at most 10']);
    assert.deepEqual(await refused(gizmo('g2', { labels: { tier: 'cache' } })), [
      'Invalid value: "object": unknown tier',
    ]);
    const rv = (created.body['metadata'] as { resourceVersion: string }).resourceVersion;
    const set = await call(server, {
      method: 'PUT',
      path: `${gizmos}/g1`,
      body: gizmo('g1', { max: 5 }, rv),
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const rv2 = (set.body['metadata'] as { resourceVersion: string }).resourceVersion;
    assert.deepEqual(await refused(gizmo('g1', { max: 6 }, rv2), 'PUT', `${gizmos}/g1`), [
      'Invalid value: "object": max is immutable once set',
    ]);
  });

  it('stops a rule past kube’s per-call cost limit with 422 and kube’s message, and stores nothing', async () => {
    // Bounded by maxItems, the rule's estimate is under the CRD limits; over 500 items it runs
    // ~250,000 iterations, past the 1,000,000 a call may cost.
    const rule = 'self.l.all(a, self.l.all(b, a == b || a != b))';
    const crd = await call(server, {
      method: 'POST',
      path: crdPath,
      body: namespacedCRD(
        'example.com',
        { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket' },
        {
          type: 'object',
          properties: { l: { type: 'array', maxItems: 500, items: { type: 'integer' } } },
          'x-kubernetes-validations': [{ rule }],
        },
      ),
    });
    assert.equal(crd.status, 201, JSON.stringify(crd.body));
    const sprockets = '/apis/example.com/v1/namespaces/default/sprockets';
    const sprocket = (name: string, n: number): unknown => ({
      apiVersion: 'example.com/v1',
      kind: 'Sprocket',
      metadata: { name },
      spec: { l: Array.from({ length: n }, (_, i) => i) },
    });
    const small = await eventually(async () => {
      const res = await call(server, { method: 'POST', path: sprockets, body: sprocket('small', 20) });
      return res.status === 404 ? undefined : res;
    });
    assert.equal(small.status, 201, JSON.stringify(small.body));
    const big = await call(server, { method: 'POST', path: sprockets, body: sprocket('big', 500) });
    assert.equal(big.status, 422, JSON.stringify(big.body));
    assert.equal(
      big.body['message'],
      `Sprocket.example.com "big" is invalid: spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    );
    const stored = await call(server, { method: 'GET', path: `${sprockets}/big` });
    assert.equal(stored.status, 404);
  });
});
