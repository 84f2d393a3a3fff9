import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import type { PersistentVolume, PersistentVolumeSpec } from '../../../api/core/v1/persistent-volume.js';
import { coreV1 } from '../../../api/schema/api-module.js';
import { ProtobufDecoder } from '../../../machinery/protobuf/index.js';
import { entry, objectMeta, pb } from '../../../machinery/protobuf/testing/proto-writer.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newPersistentVolumeREST, type PersistentVolumeStorage } from './storage.js';

const basic: PersistentVolumeSpec = {
  capacity: { storage: '5Gi' },
  accessModes: ['ReadWriteOnce'],
  hostPath: { path: '/data/pv1' },
};
const pv = (name: string, spec: PersistentVolumeSpec = basic): PersistentVolume => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: structuredClone(spec),
});
const put = (obj: PersistentVolume): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const invalid = (name: string, detail: string): { code: number; reason: string; message: string } => ({
  code: 422,
  reason: 'Invalid',
  message: `PersistentVolume "${name}" is invalid: ${detail}`,
});

describe('persistentvolumes', () => {
  let env: MemoryRESTOptions;
  let s: PersistentVolumeStorage;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    s = await newPersistentVolumeREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('creates Pending with Retain and Filesystem defaults, cluster-scoped, short name pv', async () => {
    const created = await s.persistentVolumes.create(ctx, pv('pv1', { ...basic }), { options: {} });
    assert.equal(created.status?.phase, 'Pending');
    assert.match(created.status.lastPhaseTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(created.spec?.persistentVolumeReclaimPolicy, 'Retain');
    assert.equal(created.spec.volumeMode, 'Filesystem');
    assert.deepEqual(s.persistentVolumes.shortNames(), ['pv']);
    assert.equal(s.persistentVolumes.namespaceScoped(), false);
    assert.notEqual((await env.backend.get('/registry/persistentvolumes/pv1')).kv, null);
    const list = await s.persistentVolumes.list(ctx, { fieldSelector: 'metadata.name=pv1' });
    assert.equal(list.items.length, 1);
  });

  it('prints the 1.33 columns', async () => {
    const current = await s.persistentVolumes.get(ctx, 'pv1', {});
    const table = s.persistentVolumes.convertToTable(ctx, current, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      [
        'Name',
        'Capacity',
        'Access Modes',
        'Reclaim Policy',
        'Status',
        'Claim',
        'StorageClass',
        'VolumeAttributesClass',
        'Reason',
        'Age',
        'VolumeMode',
      ],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.deepEqual(cells.slice(0, 9), ['pv1', '5Gi', 'RWO', 'Retain', 'Pending', '', '', '<unset>', '']);
    assert.equal(cells[10], 'Filesystem');
  });

  it('update keeps status; /status keeps spec and stamps the phase change', async () => {
    const current = await s.persistentVolumes.get(ctx, 'pv1', {});
    const bound = {
      ...current,
      spec: {
        ...current.spec,
        claimRef: { namespace: 'default', name: 'claim1' },
        storageClassName: 'manual',
      },
      status: { phase: 'Bound' },
    };
    const updated = (await s.persistentVolumes.update(ctx, 'pv1', put(bound))).object;
    assert.equal(updated.status?.phase, 'Pending');
    assert.equal(updated.spec?.storageClassName, 'manual');
    const st = (await s.status.update(ctx, 'pv1', put({ ...updated, spec: {}, status: { phase: 'Bound' } })))
      .object;
    assert.equal(st.status?.phase, 'Bound');
    assert.equal(st.spec?.storageClassName, 'manual');
    assert.ok(st.status.lastPhaseTransitionTime !== undefined);
    const cells = s.persistentVolumes.convertToTable(ctx, st, {}).rows[0]?.cells ?? [];
    assert.deepEqual([cells[4], cells[5], cells[6]], ['Bound', 'default/claim1', 'manual']);
  });

  it('requires capacity, access modes and exactly one volume source, with kube texts', async () => {
    await rejectsWithStatus(
      s.persistentVolumes.create(ctx, pv('empty', {}), { options: {} }),
      invalid(
        'empty',
        '[spec.accessModes: Required value, spec.capacity: Required value, spec.capacity: Unsupported value: null: supported values: "storage", spec: Required value: must specify a volume type]',
      ),
    );
    await rejectsWithStatus(
      s.persistentVolumes.create(
        ctx,
        pv('two', { ...basic, nfs: { server: 'nfs.local', path: '/exports' } }),
        { options: {} },
      ),
      invalid('two', 'spec.nfs: Forbidden: may not specify more than 1 volume type'),
    );
    await rejectsWithStatus(
      s.persistentVolumes.create(ctx, pv('modes', { ...basic, accessModes: ['ReadWriteSometimes'] }), {
        options: {},
      }),
      invalid(
        'modes',
        'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      ),
    );
    await rejectsWithStatus(
      s.persistentVolumes.create(ctx, pv('policy', { ...basic, persistentVolumeReclaimPolicy: 'Keep' }), {
        options: {},
      }),
      invalid(
        'policy',
        'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
      ),
    );
    await rejectsWithStatus(
      s.persistentVolumes.create(ctx, pv('zero', { ...basic, capacity: { storage: '0' } }), { options: {} }),
      invalid('zero', 'spec.capacity[storage]: Invalid value: "0": must be greater than zero'),
    );
    await rejectsWithStatus(
      s.persistentVolumes.create(
        ctx,
        pv('local', {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          local: { path: '/mnt/disk' },
        }),
        {
          options: {},
        },
      ),
      invalid('local', 'spec.nodeAffinity: Required value: Local volume requires node affinity'),
    );
    await rejectsWithStatus(
      s.persistentVolumes.create(
        ctx,
        pv('nfs', {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteMany'],
          nfs: { server: '', path: 'rel' },
        }),
        {
          options: {},
        },
      ),
      invalid(
        'nfs',
        '[spec.nfs.server: Required value, spec.nfs.path: Invalid value: "rel": must be an absolute path]',
      ),
    );
  });

  it('accepts nfs, csi and local with node affinity; the volume source is immutable', async () => {
    const affinity = {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] },
        ],
      },
    };
    const local = await s.persistentVolumes.create(
      ctx,
      pv('local-ok', {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        local: { path: '/mnt/disk' },
        nodeAffinity: affinity,
      }),
      { options: {} },
    );
    assert.equal(local.spec?.local?.path, '/mnt/disk');
    const csi = await s.persistentVolumes.create(
      ctx,
      pv('csi-ok', {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOncePod'],
        csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
      }),
      { options: {} },
    );
    assert.equal(csi.spec?.csi?.driver, 'ebs.csi.aws.com');
    await rejectsWithStatus(
      s.persistentVolumes.update(
        ctx,
        'csi-ok',
        put({ ...csi, spec: { ...csi.spec, csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-2' } } }),
      ),
      invalid(
        'csi-ok',
        'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
      ),
    );
  });

  it("decodes a protobuf volume's own spec fields and status with the field numbers of k8s.io/api", () => {
    const requirement = pb().string(1, 'kubernetes.io/hostname').string(2, 'In').string(3, 'n1');
    const affinity = pb().message(1, pb().message(1, pb().message(1, requirement)));
    const spec = pb()
      .message(1, entry('storage', pb().string(1, '5Gi')))
      .string(3, 'ReadWriteMany')
      .message(4, pb().string(2, 'default').string(3, 'claim1'))
      .string(5, 'Delete')
      .string(6, 'fast')
      .string(8, 'Filesystem')
      .message(9, affinity)
      .string(10, 'gold');
    const status = pb().string(1, 'Released').string(2, '').string(3, 'Reclaimed');
    const raw = pb().message(1, objectMeta('pb-pv')).message(2, spec).message(3, status).finish();
    const json = new ProtobufDecoder(builtinScheme()).toJSON(
      coreV1('PersistentVolume'),
      raw,
    ) as unknown as PersistentVolume;
    assert.deepEqual(json.spec, {
      capacity: { storage: '5Gi' },
      accessModes: ['ReadWriteMany'],
      claimRef: { namespace: 'default', name: 'claim1' },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'fast',
      volumeMode: 'Filesystem',
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] },
          ],
        },
      },
      volumeAttributesClassName: 'gold',
    });
    assert.deepEqual(json.status, { phase: 'Released', reason: 'Reclaimed' });
  });
});
