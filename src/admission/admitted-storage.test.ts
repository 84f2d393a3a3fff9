import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { newForbidden } from '../machinery/errors/index.js';
import { newConfigMapREST } from '../registry/core/configmap/storage.js';
import { newNamespaceREST } from '../registry/core/namespace/storage.js';
import { rejectsWithStatus } from '../registry/generic/testing/assert-status.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../registry/generic/testing/memory-rest-options.js';
import {
  isCollectionDeleter,
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isUpdater,
  type Storage,
  type UpdateRequest,
} from '../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../registry/rest/context.js';
import { admittedGroups, admittedStorage } from './admitted-storage.js';
import { routeAdmission } from './route-admission.js';
import type { Attributes, Operation } from './attributes.js';
import { AdmissionChain } from './chain.js';
import { handlesOnly, type MutationInterface, type ValidationInterface } from './interfaces.js';

type Step = 'admit' | 'validate';

/** Records every call; labels objects it admits; refuses what `refuse` says. */
class Recorder implements MutationInterface, ValidationInterface {
  readonly calls: { step: Step; a: Attributes }[] = [];
  readonly handles: (op: Operation) => boolean;
  refuse: ((step: Step, a: Attributes) => boolean) | undefined;

  constructor(ops: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE']) {
    this.handles = handlesOnly(...ops);
  }
  admit(_ctx: RequestContext, a: Attributes): Promise<void> {
    return this.#record('admit', a);
  }
  validate(_ctx: RequestContext, a: Attributes): Promise<void> {
    return this.#record('validate', a);
  }
  #record(step: Step, a: Attributes): Promise<void> {
    this.calls.push({ step, a: structuredClone(a) });
    if (this.refuse?.(step, a) === true)
      return Promise.reject(newForbidden({ group: '', resource: 'configmaps' }, a.name, `no ${step}`));
    if (step === 'admit' && a.object !== null) (a.object.metadata ??= {}).labels = { admitted: 'yes' };
    return Promise.resolve();
  }
}

const cm = (name: string, more: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  ...more,
});
const put = (obj: KubeObject): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: { dryRun: ['All'] },
});
const summary = (r: Recorder): string[] =>
  r.calls.map(
    (c) =>
      `${c.step} ${c.a.operation} ${c.a.name} obj=${c.a.object?.metadata?.name ?? '-'} old=${c.a.oldObject?.metadata?.name ?? '-'}`,
  );

describe("admittedStorage (the controllers' way to the API)", () => {
  let env: MemoryRESTOptions;
  let raw: Storage;
  let admitted: Storage;
  const rec = new Recorder();
  const ctx = internalContext({ namespace: 'team', user: { name: 'alice', groups: ['devs'] } });
  const resource = { group: '', version: 'v1', resource: 'configmaps' };

  before(async () => {
    env = await memoryRESTOptions();
    raw = await newConfigMapREST({ restOptionsGetter: env.getter });
    admitted = admittedStorage(
      raw,
      routeAdmission(new AdmissionChain([{ name: 'rec', plugin: rec }]), {
        kind: { group: '', version: 'v1', kind: 'ConfigMap' },
        resource,
        subresource: '',
      }),
    );
  });
  after(() => env.close());

  it('keeps exactly the capabilities of the storage it wraps', async () => {
    for (const is of [isCreater, isUpdater, isGetter, isLister, isGracefulDeleter, isCollectionDeleter])
      assert.equal(is(admitted), is(raw));
    const ns = await newNamespaceREST({ restOptionsGetter: env.getter });
    const finalize = admittedStorage(
      ns.finalize,
      routeAdmission(new AdmissionChain([]), {
        kind: { group: '', version: 'v1', kind: 'Namespace' },
        resource: { ...resource, resource: 'namespaces' },
        subresource: 'finalize',
      }),
    );
    assert.equal(isUpdater(finalize) && !isGetter(finalize) && !isLister(finalize), true);
    assert.equal(
      isCollectionDeleter(
        admittedStorage(
          ns.namespaces,
          routeAdmission(new AdmissionChain([]), {
            kind: { group: '', version: 'v1', kind: 'Namespace' },
            resource,
            subresource: '',
          }),
        ),
      ),
      false,
    );
  });

  it('admits a create before the write and validates it inside, with the generated name', async () => {
    assert.ok(isCreater(admitted));
    rec.calls.length = 0;
    const out = await admitted.create(ctx, cm('', { metadata: { generateName: 'gen-' } }), { options: {} });
    assert.deepEqual(out.metadata?.labels, { admitted: 'yes' });
    const [first, second] = rec.calls;
    assert.ok(first !== undefined && second !== undefined);
    assert.deepEqual(first.a, {
      operation: 'CREATE',
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource,
      subresource: '',
      namespace: 'team',
      name: '',
      // As the plugin saw it, before it added its label.
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } },
      oldObject: null,
      userInfo: { name: 'alice', groups: ['devs'] },
      dryRun: false,
      options: {},
    });
    assert.equal(second.step, 'validate');
    assert.match(second.a.name, /^gen-[a-z0-9]{5}$/);
  });

  it('admits an update on the object each try computes, with the old object', async () => {
    assert.ok(isCreater(admitted) && isUpdater(admitted));
    await admitted.create(ctx, cm('one'), { options: {} });
    rec.calls.length = 0;
    await admitted.update(ctx, 'one', put(cm('one', { data: { a: '1' } })));
    assert.deepEqual(summary(rec), [
      'admit UPDATE one obj=one old=one',
      'validate UPDATE one obj=one old=one',
    ]);
    assert.equal(rec.calls[0]?.a.dryRun, true);
  });

  it('admits a delete by name and validates it against the stored object', async () => {
    assert.ok(isGracefulDeleter(admitted) && isCollectionDeleter(admitted) && isCreater(admitted));
    rec.calls.length = 0;
    await admitted.delete(ctx, 'one', { options: {} });
    assert.deepEqual(summary(rec), ['admit DELETE one obj=- old=one', 'validate DELETE one obj=- old=one']);
    await admitted.create(ctx, cm('two'), { options: {} });
    rec.calls.length = 0;
    await admitted.deleteCollection(ctx, {
      options: {},
      listOptions: { fieldSelector: 'metadata.name=two' },
    });
    assert.deepEqual(summary(rec), ['admit DELETE  obj=- old=two', 'validate DELETE  obj=- old=two']);
  });

  it('stops at the first refusal, before anything is written', async () => {
    assert.ok(isCreater(admitted) && isGetter(admitted));
    const later = new Recorder();
    const chain = new AdmissionChain([
      { name: 'rec', plugin: rec },
      { name: 'later', plugin: later },
    ]);
    assert.deepEqual(chain.names, ['rec', 'later']);
    const strict = admittedStorage(
      raw,
      routeAdmission(chain, {
        kind: { group: '', version: 'v1', kind: 'ConfigMap' },
        resource,
        subresource: '',
      }),
    );
    assert.ok(isCreater(strict));
    rec.refuse = (step) => step === 'validate';
    try {
      await rejectsWithStatus(strict.create(ctx, cm('three'), { options: {} }), {
        code: 403,
        reason: 'Forbidden',
        message: 'configmaps "three" is forbidden: no validate',
      });
    } finally {
      rec.refuse = undefined;
    }
    assert.deepEqual(
      later.calls.map((c) => c.step),
      ['admit'],
    );
    await rejectsWithStatus(admitted.get(ctx, 'three', {}), { code: 404, reason: 'NotFound' });
  });

  it('skips plugins that do not handle the operation', async () => {
    const onlyDelete = new Recorder(['DELETE']);
    const chain = new AdmissionChain([{ name: 'd', plugin: onlyDelete }]);
    assert.equal(chain.handles('CREATE'), false);
    const s = admittedStorage(
      raw,
      routeAdmission(chain, {
        kind: { group: '', version: 'v1', kind: 'ConfigMap' },
        resource,
        subresource: '',
      }),
    );
    assert.ok(isCreater(s));
    await s.create(ctx, cm('four'), { options: {} });
    assert.deepEqual(onlyDelete.calls, []);
  });

  it("admits every storage of the controllers' groups, each with the plugins for its resource", async () => {
    const forConfigMaps = new Recorder();
    const chain = new AdmissionChain([
      { name: 'cm', plugin: Object.assign(forConfigMaps, { resources: new Set(['configmaps']) }) },
    ]);
    const ns = await newNamespaceREST({ restOptionsGetter: env.getter });
    const [group] = admittedGroups(
      [
        {
          group: '',
          prioritizedVersions: ['v1'],
          versionedResourcesStorageMap: { v1: { configmaps: raw, namespaces: ns.namespaces } },
        },
      ],
      chain,
    );
    const storages = group?.versionedResourcesStorageMap['v1'] ?? {};
    const [configmaps, namespaces] = [storages['configmaps'], storages['namespaces']];
    assert.ok(configmaps !== undefined && isCreater(configmaps));
    assert.ok(namespaces !== undefined && isCreater(namespaces));
    const created = await configmaps.create(ctx, cm('five'), { options: {} });
    assert.deepEqual(created.metadata?.labels, { admitted: 'yes' });
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns-five' } };
    await namespaces.create(internalContext({ namespace: 'ns-five' }), namespace, { options: {} });
    assert.deepEqual(summary(forConfigMaps), [
      'admit CREATE five obj=five old=-',
      'validate CREATE five obj=five old=-',
    ]);
  });
});
