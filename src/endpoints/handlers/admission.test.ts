// The write handlers run admission as kube's do: mutating admission once, before the write;
// validating admission handed to the Store, which runs it on the finished object; deletes admitted
// inside the Store's delete. A route leaves out the plugins that cannot act on its resource.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inject, type InjectOptions, type Response } from 'light-my-request';
import type { Attributes } from '../../admission/attributes.js';
import { AdmissionChain } from '../../admission/chain.js';
import { handlesOnly, type MutationInterface, type ValidationInterface } from '../../admission/interfaces.js';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { newForbidden } from '../../machinery/errors/index.js';
import { newConfigMapREST } from '../../registry/core/configmap/storage.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../registry/generic/testing/memory-rest-options.js';
import type { Creater, Storage } from '../../registry/rest/capabilities.js';
import type { RequestContext } from '../../registry/rest/context.js';
import { createAPIHandler } from '../api-handler.js';

type Step = 'admit' | 'validate';

/** Records what it is asked (with the object's uid, set only inside the Store); labels what it admits. */
class Recorder implements MutationInterface, ValidationInterface {
  readonly calls: string[] = [];
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE');
  refuse: Step | undefined;
  readonly resources?: ReadonlySet<string>;
  constructor(resources?: ReadonlySet<string>) {
    if (resources !== undefined) this.resources = resources;
  }
  admit(_ctx: RequestContext, a: Attributes): Promise<void> {
    return this.#record('admit', a);
  }
  validate(_ctx: RequestContext, a: Attributes): Promise<void> {
    return this.#record('validate', a);
  }
  #record(step: Step, a: Attributes): Promise<void> {
    const stored = (a.object ?? a.oldObject)?.metadata?.uid !== undefined ? 'stored' : 'new';
    this.calls.push(
      `${step} ${a.operation} ${a.resource.resource} ${a.name || '-'} ${stored} dryRun=${a.dryRun}`,
    );
    if (this.refuse === step)
      return Promise.reject(newForbidden({ group: '', resource: 'configmaps' }, a.name, 'no'));
    if (step === 'admit' && a.object !== null) (a.object.metadata ??= {}).labels = { admitted: 'yes' };
    return Promise.resolve();
  }
}

const json = { 'content-type': 'application/json' };
const cms = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('the write handlers and admission', () => {
  let env: MemoryRESTOptions;
  const rec = new Recorder();
  const podsOnly = new Recorder(new Set(['pods']));
  const validations: boolean[] = [];
  let request: (o: InjectOptions) => Promise<Response>;
  let serve: (chain: AdmissionChain) => (o: InjectOptions) => Promise<Response>;

  before(async () => {
    env = await memoryRESTOptions();
    const configmaps = await newConfigMapREST({ restOptionsGetter: env.getter });
    // Notes whether the Store was handed a validation hook.
    const create: Creater['create'] = (ctx, obj, opts) => {
      validations.push(opts.validate !== undefined);
      return configmaps.create(ctx, obj, opts);
    };
    const storage = new Proxy(configmaps, {
      get: (target, prop) => {
        if (prop === 'create') return create;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    }) as Storage;
    serve = (admission) => {
      const handler = createAPIHandler({
        groups: [
          {
            group: '',
            prioritizedVersions: ['v1'],
            versionedResourcesStorageMap: { v1: { configmaps: storage } },
          },
        ],
        scheme: builtinScheme(),
        admission,
      });
      return (o) =>
        inject((req, res) => void handler.handle(req, res, { user: { name: 'u', groups: [] } }), o);
    };
    request = serve(
      new AdmissionChain([
        { name: 'rec', plugin: rec },
        { name: 'pods', plugin: podsOnly },
      ]),
    );
  });
  after(() => env.close());

  it('admits a create once, then validates it inside the Store, under the generated name', async () => {
    rec.calls.length = 0;
    validations.length = 0;
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'g-' } });
    const res = await request({ method: 'POST', url: cms, payload: body, headers: json });
    assert.equal(res.statusCode, 201, res.body);
    const name = res.json<{ metadata: { name: string; labels: unknown } }>().metadata.name;
    assert.deepEqual(res.json<{ metadata: { labels: unknown } }>().metadata.labels, { admitted: 'yes' });
    assert.deepEqual(rec.calls, [
      'admit CREATE configmaps - new dryRun=false',
      `validate CREATE configmaps ${name} stored dryRun=false`,
    ]);
    assert.deepEqual(validations, [true]);
  });

  it('admits updates and patches on the object each try computes, and validates them', async () => {
    assert.equal(
      (await request({ method: 'POST', url: cms, payload: cm('u'), headers: json })).statusCode,
      201,
    );
    rec.calls.length = 0;
    const put = await request({
      method: 'PUT',
      url: `${cms}/u?dryRun=All`,
      payload: cm('u', { a: '1' }),
      headers: json,
    });
    assert.equal(put.statusCode, 200, put.body);
    const patch = await request({
      method: 'PATCH',
      url: `${cms}/u`,
      payload: '{"data":{"b":"2"}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patch.statusCode, 200, patch.body);
    assert.deepEqual(rec.calls, [
      // The PUT body as sent; the Store carries the system fields over before validation.
      'admit UPDATE configmaps u new dryRun=true',
      'validate UPDATE configmaps u stored dryRun=true',
      'admit UPDATE configmaps u stored dryRun=false',
      'validate UPDATE configmaps u stored dryRun=false',
    ]);
  });

  it('admits deletes inside the Store, mutating then validating, against the stored object', async () => {
    rec.calls.length = 0;
    assert.equal((await request({ method: 'DELETE', url: `${cms}/u` })).statusCode, 200);
    assert.equal(
      (await request({ method: 'POST', url: cms, payload: cm('v'), headers: json })).statusCode,
      201,
    );
    rec.calls.length = 0;
    assert.equal(
      (await request({ method: 'DELETE', url: `${cms}?fieldSelector=metadata.name%3Dv` })).statusCode,
      200,
    );
    assert.deepEqual(rec.calls, [
      'admit DELETE configmaps - stored dryRun=false',
      'validate DELETE configmaps - stored dryRun=false',
    ]);
  });

  it('writes nothing when validating admission refuses', async () => {
    rec.refuse = 'validate';
    try {
      const res = await request({ method: 'POST', url: cms, payload: cm('no'), headers: json });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json<{ message: string }>().message, 'configmaps "no" is forbidden: no');
    } finally {
      rec.refuse = undefined;
    }
    assert.equal((await request({ method: 'GET', url: `${cms}/no` })).statusCode, 404);
  });

  it('leaves out a plugin for other resources: no call, and no validation hook without validators', async () => {
    assert.deepEqual(podsOnly.calls, []);
    const only = new AdmissionChain([{ name: 'pods', plugin: podsOnly }]);
    assert.equal(only.forResource({ group: '', resource: 'configmaps' }).handles('CREATE'), false);
    assert.equal(only.forResource({ group: '', resource: 'pods' }).handles('CREATE'), true);
    validations.length = 0;
    const res = await serve(only)({ method: 'POST', url: cms, payload: cm('plain'), headers: json });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(validations, [false]);
    assert.deepEqual(podsOnly.calls, []);
  });
});
