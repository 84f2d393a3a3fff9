import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isStatusError } from '../../machinery/errors/index.js';
import { completeWithOptions } from './complete.js';
import { memoryRESTOptions, type MemoryRESTOptions } from './testing/memory-rest-options.js';
import { testContext, widget, widgetDefinition, widgetStrategy, type Widget } from './testing/widgets.js';
import type { StoreDefinition } from './store-definition.js';

describe('completeWithOptions', () => {
  let env: MemoryRESTOptions;
  before(async () => {
    env = await memoryRESTOptions();
  });
  after(() => env.close());

  const refuses = async (
    def: StoreDefinition<Widget>,
    message: string,
    withOptions = true,
  ): Promise<void> => {
    await assert.rejects(completeWithOptions(def, withOptions ? { restOptions: env.getter } : {}), {
      message,
    });
  };

  it('refuses incomplete definitions with kube texts, in kube order', async () => {
    await refuses(
      widgetDefinition({ qualifiedResource: { group: '', resource: '' } }),
      'store {qualifiedResource: "", singularName: "widget"} must have a non-empty qualified resource',
    );
    await refuses(
      widgetDefinition({ singularName: '' }),
      'store {qualifiedResource: "widgets.example.com", singularName: ""} must have a non-empty singular qualified resource',
    );
    const { newFunc: _n, ...noNew } = widgetDefinition();
    await refuses(noNew, 'store for widgets.example.com must have NewFunc set');
    const { newListFunc: _l, ...noList } = widgetDefinition();
    await refuses(noList, 'store for widgets.example.com must have NewListFunc set');
    await refuses(
      widgetDefinition({ keyFunc: (_ctx, name) => `/w/${name}` }),
      'store for widgets.example.com must set both KeyRootFunc and KeyFunc or neither',
    );
    const { tableConvertor: _t, ...noTable } = widgetDefinition();
    await refuses(
      noTable,
      'store for widgets.example.com must set TableConvertor; rest.NewDefaultTableConvertor(e.DefaultQualifiedResource) can be used to output just name/creation time',
    );
    const { createStrategy: _c, updateStrategy: _u, ...noStrategy } = widgetDefinition();
    await refuses(noStrategy, 'store for widgets.example.com must have CreateStrategy or UpdateStrategy set');
    const { deleteStrategy: _d, ...noDelete } = widgetDefinition();
    await refuses(noDelete, 'store for widgets.example.com must have DeleteStrategy set');
    await refuses(widgetDefinition(), 'options for widgets.example.com must have RESTOptions set', false);
  });

  it('refuses an empty resource prefix', async () => {
    const bad = await memoryRESTOptions({ resourcePrefix: () => '' });
    try {
      await assert.rejects(completeWithOptions(widgetDefinition(), { restOptions: bad.getter }), {
        message: 'store for widgets.example.com has an invalid prefix ""',
      });
    } finally {
      await bad.close();
    }
  });

  it('keys namespaced objects as /<prefix>/<namespace>/<name> under the storage prefix', async () => {
    const store = await completeWithOptions(widgetDefinition(), { restOptions: env.getter });
    await store.create(testContext('ns1'), widget('w1'), { options: {} });
    const res = await env.backend.get('/registry/widgets/ns1/w1');
    assert.notEqual(res.kv, null);
    assert.equal(store.core.keyRootFunc(testContext('')), '/widgets');
    assert.equal(store.core.keyRootFunc(testContext('ns1')), '/widgets/ns1');
  });

  it('keys cluster-scoped objects as /<prefix>/<name>', async () => {
    const clusterStrategy = { ...widgetStrategy, namespaceScoped: false };
    const store = await completeWithOptions(
      widgetDefinition({
        qualifiedResource: { group: 'example.com', resource: 'gadgets' },
        createStrategy: clusterStrategy,
        updateStrategy: clusterStrategy,
      }),
      { restOptions: env.getter },
    );
    assert.equal(store.namespaceScoped(), false);
    assert.equal(store.core.keyFunc(testContext(''), 'g1'), '/gadgets/g1');
  });

  it('key functions answer BadRequest as kube does', async () => {
    const store = await completeWithOptions(widgetDefinition(), { restOptions: env.getter });
    const badRequest = (fn: () => unknown, message: string): void => {
      assert.throws(fn, (err: unknown) => isStatusError(err) && err.code === 400 && err.message === message);
    };
    badRequest(() => store.core.keyFunc(testContext(''), 'x'), 'Namespace parameter required.');
    badRequest(() => store.core.keyFunc(testContext('ns'), ''), 'Name parameter required.');
    badRequest(
      () => store.core.keyFunc(testContext('ns'), '..'),
      `Name parameter invalid: "..": may not be '..'`,
    );
    badRequest(
      () => store.core.keyFunc(testContext('ns'), 'a/b%c'),
      `Name parameter invalid: "a/b%c": may not contain '/';may not contain '%'`,
    );
  });

  it('exposes discovery facts and shares storage with strategy variants', async () => {
    const store = await completeWithOptions(widgetDefinition({ shortNames: ['wd'], categories: ['all'] }), {
      restOptions: env.getter,
    });
    assert.deepEqual(store.shortNames(), ['wd']);
    assert.deepEqual(store.categories(), ['all']);
    assert.equal(store.singularName(), 'widget');
    assert.deepEqual(store.newObject(), { apiVersion: 'example.com/v1', kind: 'Widget' });
    const status = store.withStrategies({
      updateStrategy: { ...widgetStrategy, allowCreateOnUpdate: false },
    });
    await store.create(testContext(), widget('shared'), { options: {} });
    const got = await status.get(testContext(), 'shared', {});
    assert.equal(got.metadata?.name, 'shared');
    await status.destroy();
    await store.destroy();
  });
});
