// Writes that leave a manager's fields as they were keep that manager's FieldsV1 object itself: the
// storage encoder then writes the text it kept on the object (storage/fields-v1-text.ts) instead of
// encoding the object again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { builtinFieldManager } from '../testing/field-manager.js';

const fm = builtinFieldManager('v1', 'ConfigMap');

const cm = (
  data: Record<string, string>,
  labels: Record<string, string> = {},
): KubeObject & { data: Record<string, string> } => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default', labels },
  data,
});

const fieldsOf = (obj: KubeObject, manager: string): unknown =>
  obj.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1;

describe('field manager: unchanged field sets keep their FieldsV1 objects', () => {
  const created = fm.createNoErrors(cm({ a: '1' }, { app: 'x' }), 'creator');
  const live = (obj: KubeObject): KubeObject => ({
    ...obj,
    metadata: { ...obj.metadata, uid: 'u', resourceVersion: '1' },
  });

  it('a re-apply of the same fields with other values', () => {
    const first = fm.apply(live(created), cm({ b: '1' }), { manager: 'applier', force: false });
    const again = fm.apply(live(first), cm({ b: '2' }), { manager: 'applier', force: false });
    assert.deepEqual(again.data, { a: '1', b: '2' });
    assert.equal(fieldsOf(again, 'applier'), fieldsOf(first, 'applier'));
    assert.equal(fieldsOf(again, 'creator'), fieldsOf(first, 'creator'));
    // Applying one more field is a new set.
    const more = fm.apply(live(again), cm({ b: '2', c: '3' }), { manager: 'applier', force: false });
    assert.notEqual(fieldsOf(more, 'applier'), fieldsOf(again, 'applier'));
    assert.deepEqual((fieldsOf(more, 'applier') as Record<string, unknown>)['f:data'], {
      'f:b': {},
      'f:c': {},
    });
  });

  it('an update that changes only fields its manager owns', () => {
    const first = fm.update(live(created), cm({ a: '2' }, { app: 'x' }), 'editor');
    const again = fm.update(live(first), cm({ a: '3' }, { app: 'x' }), 'editor');
    assert.equal(fieldsOf(again, 'editor'), fieldsOf(first, 'editor'));
    assert.equal(fieldsOf(again, 'creator'), fieldsOf(first, 'creator'));
  });
});
