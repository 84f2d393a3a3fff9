import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import {
  isCollectionDeleter,
  isGetter,
  isLister,
  isUpdater,
  type UpdateRequest,
} from '../../rest/capabilities.js';
import { newNamespaceREST, type NamespaceStorage } from './storage.js';

const ns = (name: string, more: Partial<Namespace> = {}): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
  ...more,
});
const put = (obj: Namespace): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('namespaces', () => {
  let env: MemoryRESTOptions;
  let s: NamespaceStorage;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    s = await newNamespaceREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('creates Active namespaces with the kubernetes finalizer and the name label', async () => {
    const out = await s.namespaces.create(
      ctx,
      { ...ns('team-a'), metadata: { name: 'team-a', namespace: 'ignored' } },
      { options: {} },
    );
    assert.deepEqual(out.status, { phase: 'Active' });
    assert.deepEqual(out.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(out.metadata?.labels, { 'kubernetes.io/metadata.name': 'team-a' });
    assert.equal(out.metadata.namespace, undefined);
    assert.equal(out.metadata.generation, undefined);
    assert.notEqual((await env.backend.get('/registry/namespaces/team-a')).kv, null);
    assert.deepEqual(s.namespaces.shortNames(), ['ns']);
    assert.equal(s.namespaces.namespaceScoped(), false);
  });

  it('requires DNS-1123 label names and known finalizers', async () => {
    await rejectsWithStatus(s.namespaces.create(ctx, ns('Bad.Name'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        "Namespace \"Bad.Name\" is invalid: metadata.name: Invalid value: \"Bad.Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    });
    await rejectsWithStatus(
      s.namespaces.create(ctx, ns('fin', { spec: { finalizers: ['custom'] } }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Namespace "fin" is invalid: spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      },
    );
  });

  it('keeps status and finalizers on update, takes them through the subresources', async () => {
    const created = await s.namespaces.get(ctx, 'team-a', {});
    const { object } = await s.namespaces.update(
      ctx,
      'team-a',
      put({ ...created, status: { phase: 'Terminating' }, spec: { finalizers: [] } }),
    );
    assert.deepEqual(object.status, { phase: 'Active' });
    assert.deepEqual(object.spec, { finalizers: ['kubernetes'] });
    await rejectsWithStatus(
      s.status.update(ctx, 'team-a', put({ ...object, status: { phase: 'Terminating' } })),
      {
        code: 422,
        reason: 'Invalid',
        message: `Namespace "team-a" is invalid: status.Phase: Invalid value: "Terminating": may only be 'Active' if \`deletionTimestamp\` is empty`,
      },
    );
    await rejectsWithStatus(
      s.finalize.update(ctx, 'team-a', put({ ...object, spec: { finalizers: ['nope'] } })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Namespace "team-a" is invalid: spec.finalizers[0]: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified',
      },
    );
  });

  it('has the capabilities kube gives each path', () => {
    assert.equal(isCollectionDeleter(s.namespaces), false);
    assert.equal(isLister(s.namespaces), true);
    assert.equal(isGetter(s.status) && isUpdater(s.status) && !isLister(s.status), true);
    assert.equal(isUpdater(s.finalize) && !isGetter(s.finalize), true);
  });

  it('deletes in two steps: Terminating, then gone once finalized', async () => {
    const doomed = await s.namespaces.create(ctx, ns('doomed'), { options: {} });
    await rejectsWithStatus(
      s.namespaces.delete(ctx, 'doomed', { options: { preconditions: { uid: 'x' } } }),
      {
        code: 409,
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on namespaces "doomed": Precondition failed: UID in precondition: x, UID in object meta: ${doomed.metadata?.uid ?? ''}`,
      },
    );
    const first = await s.namespaces.delete(ctx, 'doomed', { options: { propagationPolicy: 'Orphan' } });
    assert.equal(first.deleted, false);
    const marked = first.object as Namespace;
    assert.equal(marked.status?.phase, 'Terminating');
    assert.match(marked.metadata?.deletionTimestamp ?? '', /Z$/);
    assert.deepEqual(marked.metadata?.finalizers, ['orphan']);
    const again = await s.namespaces.delete(ctx, 'doomed', { options: {} });
    assert.equal(again.deleted, false);
    const listed = await s.namespaces.list(ctx, { fieldSelector: 'status.phase=Terminating' });
    assert.deepEqual(
      listed.items.map((n) => n.metadata?.name),
      ['doomed'],
    );

    // What the namespace controller does once the namespace is empty.
    const cur = await s.namespaces.get(ctx, 'doomed', {});
    await s.namespaces.update(ctx, 'doomed', put({ ...cur, metadata: { ...cur.metadata, finalizers: [] } }));
    assert.equal((await s.namespaces.get(ctx, 'doomed', {})).status?.phase, 'Terminating');
    const fin = await s.namespaces.get(ctx, 'doomed', {});
    await s.finalize.update(ctx, 'doomed', put({ ...fin, spec: { finalizers: [] } }));
    await rejectsWithStatus(s.namespaces.get(ctx, 'doomed', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "doomed" not found',
    });
  });

  it('prints NAME STATUS AGE and supports its field labels only', async () => {
    const table = s.namespaces.convertToTable(ctx, await s.namespaces.list(ctx, {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.description]),
      [
        ['Name', table.columnDefinitions[0]?.description],
        ['Status', 'The status of the namespace'],
        ['Age', table.columnDefinitions[2]?.description],
      ],
    );
    assert.deepEqual(
      table.rows.map((r) => r.cells.slice(0, 2)),
      [['team-a', 'Active']],
    );
    await rejectsWithStatus(s.namespaces.list(ctx, { fieldSelector: 'metadata.namespace=x' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: metadata.namespace',
    });
  });
});
