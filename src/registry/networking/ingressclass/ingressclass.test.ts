import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IngressClass } from '../../../api/networking/v1/ingress-class.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newIngressClassREST } from './storage.js';
import { validateIngressClass, validateIngressClassUpdate } from './strategy.js';

const ic = (name: string, spec: NonNullable<IngressClass['spec']>): IngressClass => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: { name },
  spec,
});
const put = (obj: IngressClass): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('ingressclasses', () => {
  let env: MemoryRESTOptions;
  let store: Store<IngressClass>;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newIngressClassREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores cluster-scoped, defaulting the parameters scope to Cluster', async () => {
    const out = await store.create(
      ctx,
      ic('nginx', {
        controller: 'k8s.io/ingress-nginx',
        parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' },
      }),
      { options: {} },
    );
    assert.equal(out.spec?.parameters?.scope, 'Cluster');
    assert.equal(store.namespaceScoped(), false);
    assert.notEqual((await env.backend.get('/registry/ingressclasses/nginx')).kv, null);
  });

  it('prints NAME CONTROLLER PARAMETERS AGE', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'nginx', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Controller', 'Parameters', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 3), [
      'nginx',
      'k8s.io/ingress-nginx',
      'Params.k8s.example.com/p',
    ]);
  });

  it('requires a domain-prefixed controller and keeps it immutable', async () => {
    await rejectsWithStatus(store.create(ctx, ic('bad', { controller: 'nginx' }), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'IngressClass.networking.k8s.io "bad" is invalid: spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
    });
    await rejectsWithStatus(
      store.create(
        ctx,
        ic('ns', { controller: 'a.io/b', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } }),
        {
          options: {},
        },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'IngressClass.networking.k8s.io "ns" is invalid: spec.parameters.namespace: Required value: `parameters.scope` is set to \'Namespace\'',
      },
    );
    const current = await store.get(ctx, 'nginx', {});
    await rejectsWithStatus(
      store.update(ctx, 'nginx', put({ ...current, spec: { ...current.spec, controller: 'x.io/y' } })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'IngressClass.networking.k8s.io "nginx" is invalid: spec.controller: Invalid value: "x.io/y": field is immutable',
      },
    );
  });

  it("checks the parameters reference with kube's messages: an empty apiGroup, kind and name", () => {
    const errs = validateIngressClass(
      ic('params', {
        controller: 'example.com/c',
        parameters: { apiGroup: '', kind: '', name: '', scope: 'Cluster' },
      }),
    ).map((e) => e.error());
    assert.deepEqual(errs, [
      "spec.parameters.apiGroup: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.parameters.kind: Required value: kind is required',
      'spec.parameters.name: Required value: name is required',
    ]);
  });

  it('counts the controller length in bytes, as Go does', () => {
    const controller = `example.com/${'é'.repeat(120)}`;
    const errs = validateIngressClass(ic('long', { controller })).map((e) => e.error());
    assert.equal(errs[0], 'spec.controller: Too long: may not be more than 250 bytes');
    assert.equal(errs.length, 2);
  });

  it('orders update errors as kube: metadata, the immutable controller, then the object', () => {
    const meta = { name: 'upd', resourceVersion: '2' };
    const old: IngressClass = { ...ic('upd', { controller: 'example.com/c' }), metadata: meta };
    const next: IngressClass = {
      ...ic('upd', { parameters: { kind: 'K', name: 'n', scope: 'Elsewhere' } }),
      metadata: { ...meta, labels: { '-bad': 'x' } },
    };
    const label =
      "metadata.labels: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    assert.deepEqual(
      validateIngressClassUpdate(next, old).map((e) => e.error()),
      [
        label,
        'spec.controller: Invalid value: "": field is immutable',
        label,
        'spec.controller: Required value',
        'spec.parameters.scope: Unsupported value: "Elsewhere": supported values: "Cluster", "Namespace"',
      ],
    );
  });
});
