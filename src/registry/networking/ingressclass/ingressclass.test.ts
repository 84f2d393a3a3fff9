import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IngressClass } from '../../../api/networking/v1/ingress-class.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newIngressClassREST } from './storage.js';

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
});
