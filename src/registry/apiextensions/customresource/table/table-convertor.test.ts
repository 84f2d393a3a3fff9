import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceColumnDefinition } from '../../../../api/apiextensions/v1/crd.js';
import type { KubeList, KubeObject } from '../../../../api/meta.js';
import {
  objectMetaCreationTimestampDescription,
  objectMetaNameDescription,
} from '../../../generic/table-convertor.js';
import { testContext } from '../../../generic/testing/widgets.js';
import { cellForJSONValue, newCustomResourceTableConvertor, parseRFC3339 } from './table-convertor.js';

const resource = { group: 'example.com', resource: 'widgets' };
const hour = 3600_000;
const ago = (ms: number): string => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, 'Z');

function widget(
  name: string,
  spec: Record<string, unknown>,
  status: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, resourceVersion: '5', creationTimestamp: ago(3 * hour) },
    spec,
    status,
  };
}

const columns: CustomResourceColumnDefinition[] = [
  { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
  { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', priority: 1 },
  { name: 'Paused', type: 'boolean', jsonPath: '.spec.paused', format: 'flag' },
  {
    name: 'Ready',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Ready")].status',
    description: 'whether it is ready',
  },
  { name: 'Started', type: 'date', jsonPath: '.status.startTime', priority: 2 },
];

describe('custom resource table convertor', () => {
  const convertor = newCustomResourceTableConvertor({ columns, resource });

  it('has Name first, then the CRD columns with their priorities', () => {
    const table = convertor.convertToTable(testContext(), widget('a', {}), {});
    assert.deepEqual(table.columnDefinitions, [
      { name: 'Name', type: 'string', format: 'name', description: objectMetaNameDescription, priority: 0 },
      {
        name: 'Replicas',
        type: 'integer',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.replicas',
        priority: 0,
      },
      {
        name: 'Ratio',
        type: 'number',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.ratio',
        priority: 1,
      },
      {
        name: 'Paused',
        type: 'boolean',
        format: 'flag',
        description: 'Custom resource definition column (in JSONPath format): .spec.paused',
        priority: 0,
      },
      { name: 'Ready', type: 'string', format: '', description: 'whether it is ready', priority: 0 },
      {
        name: 'Started',
        type: 'date',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .status.startTime',
        priority: 2,
      },
    ]);
  });

  it('fills cells of matching types and nulls where nothing matches', () => {
    const obj = widget(
      'a',
      { replicas: 3, ratio: 0.25, paused: true },
      { conditions: [{ type: 'Ready', status: 'True' }], startTime: ago(12 * hour + 30 * 60_000) },
    );
    assert.deepEqual(convertor.convertToTable(testContext(), obj, {}).rows[0]?.cells, [
      'a',
      3,
      0.25,
      true,
      'True',
      '12h',
    ]);
    const empty = convertor.convertToTable(testContext(), widget('b', {}), {});
    assert.deepEqual(empty.rows[0]?.cells, ['b', null, null, null, null, null]);
  });

  it('nulls cells whose value does not match the column type, and prints any value in a string column', () => {
    const obj = widget(
      'a',
      { replicas: 'three', ratio: 'half', paused: 'yes' },
      { conditions: [{ type: 'Ready', status: { deep: [1] } }], startTime: 5 },
    );
    assert.deepEqual(convertor.convertToTable(testContext(), obj, {}).rows[0]?.cells, [
      'a',
      null,
      null,
      null,
      '{"deep":[1]}',
      null,
    ]);
  });

  it('defaults to an Age column of the creation timestamp', () => {
    const table = newCustomResourceTableConvertor({ columns: [], resource }).convertToTable(
      testContext(),
      widget('a', {}),
      {},
    );
    assert.deepEqual(table.columnDefinitions, [
      { name: 'Name', type: 'string', format: 'name', description: objectMetaNameDescription, priority: 0 },
      {
        name: 'Age',
        type: 'date',
        format: '',
        description: objectMetaCreationTimestampDescription,
        priority: 0,
      },
    ]);
    assert.deepEqual(table.rows[0]?.cells, ['a', '3h']);
  });

  it('converts a list to one row per item with the list metadata', () => {
    const list: KubeList = {
      metadata: { resourceVersion: '9', continue: 'next' },
      items: [widget('a', { replicas: 1 }), widget('b', { replicas: 2 }), widget('c', {})],
    };
    const table = convertor.convertToTable(testContext(), list, {});
    assert.deepEqual(
      table.rows.map((r) => r.cells.slice(0, 2)),
      [
        ['a', 1],
        ['b', 2],
        ['c', null],
      ],
    );
    assert.deepEqual(table.metadata, { resourceVersion: '9', continue: 'next' });
  });

  it('includes the object per includeObject', () => {
    const obj = widget('a', { replicas: 1 });
    const byDefault = convertor.convertToTable(testContext(), obj, {});
    assert.deepEqual(byDefault.rows[0]?.object, {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: obj.metadata,
    });
    assert.equal(byDefault.metadata.resourceVersion, '5');
    assert.deepEqual(
      convertor.convertToTable(testContext(), obj, { includeObject: 'Object' }).rows[0]?.object,
      obj,
    );
    assert.equal(
      convertor.convertToTable(testContext(), obj, { includeObject: 'None' }).rows[0]?.object,
      undefined,
    );
  });

  it('keeps the columns before one whose jsonPath does not parse, and says so', () => {
    const errors: string[] = [];
    const partial = newCustomResourceTableConvertor({
      columns: [columns[0]!, { name: 'Bad', type: 'string', jsonPath: '.spec.items[' }, columns[1]!],
      resource,
      onInvalidColumn: (err) => errors.push(err.message),
    });
    const table = partial.convertToTable(testContext(), widget('a', { replicas: 2 }), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Replicas'],
    );
    assert.deepEqual(table.rows[0]?.cells, ['a', 2]);
    assert.deepEqual(errors, ['unrecognized column definition ".spec.items["']);
  });

  it('takes the first value of a multi-valued path', () => {
    const multi = newCustomResourceTableConvertor({
      columns: [{ name: 'Hosts', type: 'string', jsonPath: '.spec.servers[*].hosts' }],
      resource,
    });
    const obj = widget('a', { servers: [{ hosts: ['foo'] }, { hosts: ['bar', 'baz'] }] });
    assert.deepEqual(multi.convertToTable(testContext(), obj, {}).rows[0]?.cells, ['a', '["foo"]']);
  });
});

describe('cellForJSONValue', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  const cases: [string, unknown, unknown][] = [
    ['integer', 42, 42],
    ['integer', 3.14, 3],
    ['integer', true, null],
    ['integer', 'foo', null],
    ['number', 42, 42],
    ['number', 3.14, 3.14],
    ['number', true, null],
    ['number', 'foo', null],
    ['boolean', 42, null],
    ['boolean', true, true],
    ['boolean', 'foo', null],
    ['string', 42, null],
    ['string', true, null],
    ['string', 'foo', 'foo'],
    ['date', 42, null],
    ['date', true, null],
    ['date', '2024-05-01T00:00:00Z', '12h'],
    ['date', '2024-05-01T10:30:00+01:00', '150m'],
    ['date', '2024-05-02T00:30:00Z', '<invalid>'],
    ['date', 'yesterday', '<invalid>'],
    ['date', '2024-02-30T00:00:00Z', '<invalid>'],
    ['date', '', '<unknown>'],
    ['date', '0001-01-01T00:00:00Z', '<unknown>'],
    ['unknown', 'foo', null],
    ['string', null, null],
  ];
  for (const [type, value, want] of cases) {
    it(`${JSON.stringify(value)} in a ${type} column is ${JSON.stringify(want)}`, () => {
      assert.equal(cellForJSONValue({ type, value, now }), want);
    });
  }
});

describe('parseRFC3339', () => {
  it('parses fractions and offsets as Go time.RFC3339', () => {
    assert.equal(parseRFC3339('2024-05-01T10:00:00.5Z'), Date.parse('2024-05-01T10:00:00.500Z'));
    assert.equal(parseRFC3339('2024-05-01T10:00:00-02:30'), Date.parse('2024-05-01T12:30:00Z'));
    assert.equal(parseRFC3339('2024-05-01 10:00:00Z'), undefined);
    assert.equal(parseRFC3339('2024-05-01T24:00:00Z'), undefined);
  });
});
