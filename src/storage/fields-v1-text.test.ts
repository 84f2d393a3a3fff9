import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goJSONText } from '../machinery/json/go-json-text.js';
import { encodeFieldsV1 } from '../machinery/patch/fieldpath/fields-v1.js';
import { FieldSet } from '../machinery/patch/fieldpath/set.js';
import { managedFieldsPieces } from './fields-v1-text.js';

const f = (name: string) => ({ kind: 'field', name }) as const;

/** A known canonical FieldsV1 object, as the field manager makes them. */
const canonical = (): Record<string, unknown> =>
  encodeFieldsV1(FieldSet.of([f('metadata'), f('labels'), f('a<b')], [f('spec'), f('containers')]));

const entry = (fieldsV1: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  manager: 'kubectl & <friends>',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-11-30T10:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...extra,
});

const text = (entries: readonly unknown[]): string => managedFieldsPieces(entries).pieces.join('');

describe('managedFieldsPieces', () => {
  it('writes what goJSONText writes, HTML escapes and a member after fieldsV1 included', () => {
    const cases: unknown[][] = [
      [entry(canonical())],
      [entry(canonical(), { subresource: 'status' }), entry(canonical())],
      // Not known canonical (as a client sent it), and without fieldsV1 at all.
      [entry({ 'f:metadata': { 'f:name': {} } }), entry(undefined)],
      [],
    ];
    for (const entries of cases) assert.equal(text(entries), goJSONText(entries));
  });

  it('tells whether every entry’s FieldsV1 was known canonical', () => {
    assert.equal(managedFieldsPieces([entry(canonical()), entry(canonical())]).canonical, true);
    assert.equal(managedFieldsPieces([entry(canonical()), entry({ 'f:data': {} })]).canonical, false);
    assert.equal(managedFieldsPieces([entry(undefined)]).canonical, false);
  });

  it('keeps a FieldsV1 text on its object for the next write, out of sight of JSON, keys and copies', () => {
    const fields = canonical();
    let reads = 0;
    Object.defineProperty(fields, 'f:status', {
      enumerable: true,
      get: () => {
        reads++;
        return {};
      },
    });
    const first = text([entry(fields)]);
    assert.equal(text([entry(fields, { time: '2026-11-30T11:00:00Z' })]), first.replace('10:00', '11:00'));
    assert.equal(reads, 1);
    assert.deepEqual(Object.keys(fields), ['f:metadata', 'f:spec', 'f:status']);
    assert.equal(JSON.stringify({ ...fields }), JSON.stringify(fields));
    assert.equal(Object.getOwnPropertySymbols({ ...fields }).length, 0);
  });

  it('writes a frozen FieldsV1 object without keeping anything on it', () => {
    const fields = Object.freeze(canonical());
    assert.equal(text([entry(fields)]), goJSONText([entry(fields)]));
    assert.equal(Object.getOwnPropertySymbols(fields).length, 0);
  });
});
