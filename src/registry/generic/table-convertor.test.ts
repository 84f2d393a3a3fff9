import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeList, KubeObject } from '../../api/meta.js';
import { humanDuration, translateTimestampSince } from './human-duration.js';
import {
  newDefaultTableConvertor,
  objectMetaCreationTimestampDescription,
  objectMetaNameDescription,
} from './table-convertor.js';
import { testContext } from './testing/widgets.js';

const obj: KubeObject = {
  kind: 'Widget',
  apiVersion: 'example.com/v1',
  metadata: { name: 'a', creationTimestamp: '2024-05-01T10:00:00Z', resourceVersion: '7' },
};

describe('default table convertor', () => {
  const convertor = newDefaultTableConvertor({ group: 'example.com', resource: 'widgets' });

  it('has kube columns: Name and Created At', () => {
    const table = convertor.convertToTable(testContext(), obj, {});
    assert.deepEqual(table.columnDefinitions, [
      { name: 'Name', type: 'string', format: 'name', description: objectMetaNameDescription, priority: 0 },
      {
        name: 'Created At',
        type: 'date',
        format: '',
        description: objectMetaCreationTimestampDescription,
        priority: 0,
      },
    ]);
    assert.deepEqual(table.rows[0]?.cells, ['a', '2024-05-01T10:00:00Z']);
    assert.equal(table.metadata.resourceVersion, '7');
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
  });

  it('includes objects as PartialObjectMetadata by default, whole or not at all on request', () => {
    assert.deepEqual(convertor.convertToTable(testContext(), obj, {}).rows[0]?.object, {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: obj.metadata,
    });
    assert.deepEqual(
      convertor.convertToTable(testContext(), obj, { includeObject: 'Object' }).rows[0]?.object,
      obj,
    );
    assert.equal(
      convertor.convertToTable(testContext(), obj, { includeObject: 'None' }).rows[0]?.object,
      undefined,
    );
  });

  it('converts lists with their list metadata', () => {
    const list: KubeList = {
      metadata: { resourceVersion: '9', continue: 'c', remainingItemCount: 3 },
      items: [obj, obj],
    };
    const table = convertor.convertToTable(testContext(), list, {});
    assert.equal(table.rows.length, 2);
    assert.deepEqual(table.metadata, { resourceVersion: '9', continue: 'c', remainingItemCount: 3 });
  });
});

describe('humanDuration', () => {
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;
  it('matches kube for each range', () => {
    const cases: [number, string][] = [
      [-3 * s, '<invalid>'],
      [-1 * s, '0s'],
      [0, '0s'],
      [119 * s, '119s'],
      [2 * m, '2m'],
      [9 * m + 59 * s, '9m59s'],
      [10 * m + 30 * s, '10m'],
      [3 * h - 1, '179m'],
      [3 * h, '3h'],
      [7 * h + 59 * m, '7h59m'],
      [8 * h, '8h'],
      [47 * h, '47h'],
      [2 * d, '2d'],
      [7 * d + 23 * h, '7d23h'],
      [8 * d, '8d'],
      [729 * d, '729d'],
      [730 * d, '2y'],
      [731 * d, '2y1d'],
      [8 * 365 * d, '8y'],
    ];
    for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `${ms}ms`);
  });

  it('ages timestamps, <unknown> without one', () => {
    assert.equal(translateTimestampSince(undefined), '<unknown>');
    assert.equal(translateTimestampSince('2024-01-01T00:00:00Z', Date.parse('2024-01-01T00:00:30Z')), '30s');
  });
});
