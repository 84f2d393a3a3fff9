import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import { coreV1 } from '../../../api/schema/api-module.js';
import { ProtobufDecoder } from '../../../machinery/protobuf/index.js';
import { entry, objectMeta, pb } from '../../../machinery/protobuf/testing/proto-writer.js';
import type {
  PersistentVolumeClaim,
  PersistentVolumeClaimSpec,
} from '../../../api/core/v1/persistent-volume-claim.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newPersistentVolumeClaimREST, type PersistentVolumeClaimStorage } from './storage.js';

const basic: PersistentVolumeClaimSpec = {
  accessModes: ['ReadWriteOnce'],
  resources: { requests: { storage: '1Gi' } },
  storageClassName: 'manual',
};
const pvc = (name: string, spec: PersistentVolumeClaimSpec = basic): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: structuredClone(spec),
});
const put = (obj: PersistentVolumeClaim): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const invalid = (name: string, detail: string): { code: number; reason: string; message: string } => ({
  code: 422,
  reason: 'Invalid',
  message: `PersistentVolumeClaim "${name}" is invalid: ${detail}`,
});
const immutable =
  'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

describe('persistentvolumeclaims', () => {
  let env: MemoryRESTOptions;
  let s: PersistentVolumeClaimStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    s = await newPersistentVolumeClaimREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('creates Pending (status given is dropped), namespaced, short name pvc', async () => {
    const created = await s.persistentVolumeClaims.create(
      ctx,
      { ...pvc('data'), status: { phase: 'Bound' } },
      { options: {} },
    );
    assert.deepEqual(created.status, { phase: 'Pending' });
    assert.equal(created.spec?.volumeMode, 'Filesystem');
    assert.equal(created.metadata?.namespace, 'default');
    assert.deepEqual(s.persistentVolumeClaims.shortNames(), ['pvc']);
    assert.notEqual((await env.backend.get('/registry/persistentvolumeclaims/default/data')).kv, null);
    const table = s.persistentVolumeClaims.convertToTable(ctx, created, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      [
        'Name',
        'Status',
        'Volume',
        'Capacity',
        'Access Modes',
        'StorageClass',
        'VolumeAttributesClass',
        'Age',
        'VolumeMode',
      ],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.deepEqual(cells.slice(0, 7), ['data', 'Pending', '', '', '', 'manual', '<unset>']);
    assert.equal(cells[8], 'Filesystem');
  });

  it('requires access modes and a storage request, with kube texts', async () => {
    await rejectsWithStatus(
      s.persistentVolumeClaims.create(ctx, pvc('empty', {}), { options: {} }),
      invalid(
        'empty',
        '[spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]',
      ),
    );
    await rejectsWithStatus(
      s.persistentVolumeClaims.create(
        ctx,
        pvc('neg', { ...basic, resources: { requests: { storage: '-1Gi' } } }),
        { options: {} },
      ),
      invalid('neg', 'spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero'),
    );
    await rejectsWithStatus(
      s.persistentVolumeClaims.create(ctx, pvc('mode', { ...basic, volumeMode: 'Raw' }), { options: {} }),
      invalid('mode', 'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"'),
    );
  });

  it('binding through /status and volumeName once; the rest of the spec is immutable', async () => {
    const current = await s.persistentVolumeClaims.get(ctx, 'data', {});
    await rejectsWithStatus(
      s.persistentVolumeClaims.update(
        ctx,
        'data',
        put({ ...current, spec: { ...current.spec, accessModes: ['ReadWriteMany'] } }),
      ),
      invalid('data', immutable),
    );
    await rejectsWithStatus(
      s.persistentVolumeClaims.update(
        ctx,
        'data',
        put({ ...current, spec: { ...current.spec, resources: { requests: { storage: '2Gi' } } } }),
      ),
      invalid('data', immutable),
    );
    const named = (
      await s.persistentVolumeClaims.update(
        ctx,
        'data',
        put({ ...current, spec: { ...current.spec, volumeName: 'pv1' } }),
      )
    ).object;
    assert.equal(named.spec?.volumeName, 'pv1');
    const bound = (
      await s.status.update(
        ctx,
        'data',
        put({
          ...named,
          spec: {},
          status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } },
        }),
      )
    ).object;
    assert.equal(bound.spec?.volumeName, 'pv1');
    const cells = s.persistentVolumeClaims.convertToTable(ctx, bound, {}).rows[0]?.cells ?? [];
    assert.deepEqual(cells.slice(0, 5), ['data', 'Bound', 'pv1', '1Gi', 'RWO']);
    await rejectsWithStatus(
      s.persistentVolumeClaims.update(
        ctx,
        'data',
        put({ ...bound, spec: { ...bound.spec, volumeName: 'pv2' } }),
      ),
      invalid('data', immutable),
    );
    const grown = (
      await s.persistentVolumeClaims.update(
        ctx,
        'data',
        put({ ...bound, spec: { ...bound.spec, resources: { requests: { storage: '3Gi' } } } }),
      )
    ).object;
    assert.equal(grown.spec?.resources?.requests?.['storage'], '3Gi');
    await rejectsWithStatus(
      s.persistentVolumeClaims.update(
        ctx,
        'data',
        put({ ...grown, spec: { ...grown.spec, resources: { requests: { storage: '1Gi' } } } }),
      ),
      invalid(
        'data',
        'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
      ),
    );
    const shrunk = (
      await s.persistentVolumeClaims.update(
        ctx,
        'data',
        put({ ...grown, spec: { ...grown.spec, resources: { requests: { storage: '2Gi' } } } }),
      )
    ).object;
    assert.equal(shrunk.spec?.resources?.requests?.['storage'], '2Gi');
  });

  it('selects claims by metadata.name and metadata.namespace', async () => {
    const other = testContext('other');
    await s.persistentVolumeClaims.create(other, pvc('data'), { options: {} });
    const all = testContext('');
    const names = async (fieldSelector: string): Promise<string[]> =>
      (await s.persistentVolumeClaims.list(all, { fieldSelector })).items.map(
        (c) => `${c.metadata?.namespace ?? ''}/${c.metadata?.name ?? ''}`,
      );
    assert.deepEqual(await names('metadata.namespace=other'), ['other/data']);
    assert.deepEqual((await names('metadata.name=data')).sort(), ['default/data', 'other/data']);
    await rejectsWithStatus(s.persistentVolumeClaims.list(all, { fieldSelector: 'spec.volumeName=pv1' }), {
      code: 400,
      reason: 'BadRequest',
    });
  });

  it('decodes a protobuf claim with the field numbers of k8s.io/api', () => {
    const requests = entry('storage', pb().string(1, '1Gi'));
    const spec = pb()
      .string(1, 'ReadWriteOnce')
      .message(2, pb().message(2, requests))
      .string(3, '')
      .string(5, 'manual')
      .string(6, 'Block');
    const status = pb()
      .string(1, 'Bound')
      .string(2, 'ReadWriteOnce')
      .message(3, entry('storage', pb().string(1, '2Gi')));
    const raw = pb()
      .message(1, objectMeta('pb-claim', 'default'))
      .message(2, spec)
      .message(3, status)
      .finish();
    const json = new ProtobufDecoder(builtinScheme()).toJSON(
      coreV1('PersistentVolumeClaim'),
      raw,
    ) as unknown as PersistentVolumeClaim;
    assert.deepEqual(json.spec, {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      storageClassName: 'manual',
      volumeMode: 'Block',
    });
    assert.deepEqual(json.status, {
      phase: 'Bound',
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '2Gi' },
    });
  });
});
