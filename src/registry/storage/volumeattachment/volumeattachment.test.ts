import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VolumeAttachment } from '../../../api/storage/v1/volume-attachment.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newVolumeAttachmentREST, type VolumeAttachmentStorage } from './storage.js';

const va = (name: string, spec: VolumeAttachment['spec']): VolumeAttachment => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'VolumeAttachment',
  metadata: { name },
  spec,
});
const put = (obj: VolumeAttachment): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const spec = { attacher: 'a.csi.io', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' };

describe('volumeattachments', () => {
  let env: MemoryRESTOptions;
  let storage: VolumeAttachmentStorage;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    storage = await newVolumeAttachmentREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('takes the status only through /status and prints NAME ATTACHER PV NODE ATTACHED AGE', async () => {
    const created = await storage.volumeAttachments.create(
      ctx,
      { ...va('va-1', spec), status: { attached: true } },
      { options: {} },
    );
    assert.equal(created.status, undefined);
    const updated = await storage.status.update(ctx, 'va-1', put({ ...created, status: { attached: true } }));
    assert.deepEqual(updated.object.status, { attached: true });
    const table = storage.volumeAttachments.convertToTable(ctx, updated.object, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 5), ['va-1', 'a.csi.io', 'pv-1', 'node-1', true]);
  });

  it('requires one source and keeps the spec immutable', async () => {
    await rejectsWithStatus(
      storage.volumeAttachments.create(ctx, va('none', { ...spec, source: {} }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'VolumeAttachment.storage.k8s.io "none" is invalid: spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      },
    );
    const current = await storage.volumeAttachments.get(ctx, 'va-1', {});
    const status = await rejectsWithStatus(
      storage.volumeAttachments.update(
        ctx,
        'va-1',
        put({ ...current, spec: { ...spec, nodeName: 'node-2' } }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.match(status.message ?? '', /spec: Invalid value: .*: field is immutable/);
  });
});
