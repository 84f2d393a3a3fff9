import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { conforms } from './conforms.js';
import { validateSchema } from './openapi-validator.js';

const verdict = (data: unknown, s: JSONSchemaProps): boolean =>
  validateSchema(data, s, '').errors.length === 0;

/** A schema of the members that are set (a schema holds no undefined member). */
function schemaOf(members: Record<string, unknown>): JSONSchemaProps {
  const s: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(members)) if (v !== undefined) s[k] = v;
  return s;
}

// Values the schemas below compare with, so that enums, patterns and limits are met as often as missed.
const scalar = fc.oneof(
  fc.constantFrom('a', 'ab', 'abc', '', '1', 'x-y', '\u{1F600}', '\u{1F600}a', '\uD800', 'AbC'),
  fc.constantFrom('2024-01-02', '2024-01-02T03:04:05Z', '10s', 'dGVzdA==', 'not a date', '#ffffff'),
  fc.constantFrom(0, -0, 1, 2, 3, -1, 1.5, 2.5, 10, 1e3, 2 ** 53, NaN, Infinity, -Infinity),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', '__proto__'), tie('v'), { maxKeys: 4 }),
  ),
})).v;

const schemaTypes = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null', ''] as const;
const formats = ['date', 'date-time', 'datetime', 'duration', 'byte', 'hexcolor', 'int32', 'float'];

const schema: fc.Arbitrary<JSONSchemaProps> = fc.letrec<{ s: JSONSchemaProps }>((tie) => {
  // Nested schemas end at a small depth: each node may hold a dozen of them.
  const leaf = fc.constantFrom<JSONSchemaProps>(
    {},
    { type: 'string' },
    { type: 'integer' },
    { enum: ['a', 1] },
  );
  const sub = fc.oneof({ maxDepth: 2, depthIdentifier: 'schema', withCrossShrink: true }, leaf, tie('s'));
  // Each constraint is there now and then: a value meets a schema of few constraints often enough
  // for both verdicts to come up.
  const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
  return {
    s: fc
      .record(
        {
          type: optional(fc.constantFrom(...schemaTypes)),
          intOrString: optional(fc.boolean()),
          nullable: optional(fc.boolean()),
          format: optional(fc.constantFrom(...formats)),
          enum: optional(fc.array(scalar, { maxLength: 4 })),
          pattern: optional(fc.constantFrom('^a', 'b$', '^[a-z]*$', '(', '')),
          maxLength: optional(fc.nat(3)),
          minLength: optional(fc.nat(3)),
          multipleOf: optional(fc.constantFrom(2, 0.5, 0, -2, 1.5)),
          minimum: optional(fc.constantFrom(0, 1, 1.5, -1)),
          maximum: optional(fc.constantFrom(0, 2, 2.5, 10)),
          exclusiveMinimum: optional(fc.boolean()),
          exclusiveMaximum: optional(fc.boolean()),
          items: optional(sub),
          minItems: optional(fc.nat(2)),
          maxItems: optional(fc.nat(3)),
          uniqueItems: optional(fc.boolean()),
          properties: optional(
            fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__'), sub, { maxKeys: 3 }),
          ),
          additionalProperties: optional(fc.oneof(fc.boolean(), sub)),
          required: optional(fc.array(fc.constantFrom('a', 'b', 'd'), { maxLength: 2 })),
          minProperties: optional(fc.nat(2)),
          maxProperties: optional(fc.nat(3)),
          anyOf: optional(fc.array(sub, { maxLength: 2 })),
          oneOf: optional(fc.array(sub, { maxLength: 2 })),
          allOf: optional(fc.array(sub, { maxLength: 2 })),
          not: optional(sub),
        },
        { requiredKeys: [] },
      )
      .map(({ intOrString, ...rest }) => schemaOf({ ...rest, 'x-kubernetes-int-or-string': intOrString })),
  };
}).s;

describe('conforms: the schema validator verdict without its errors', () => {
  it('agrees with validateSchema on generated schemas and values', () => {
    const verdicts = { false: 0, true: 0 };
    fc.assert(
      fc.property(schema, value, (s, data) => {
        const want = verdict(data, s);
        assert.equal(conforms(data, s), want, JSON.stringify({ s, data }));
        verdicts[want ? 'true' : 'false']++;
      }),
      { numRuns: 10000 },
    );
    // Both verdicts came up often: the generators are not all one way.
    assert.ok(Math.min(verdicts.false, verdicts.true) > 1000, JSON.stringify(verdicts));
  });

  it('agrees on values generated to fit a schema of objects, lists and strings', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      required: ['spec'],
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: { type: 'integer', minimum: 1, maximum: 5 },
            color: { type: 'string', enum: ['red', 'blue'] },
            tags: { type: 'array', items: { type: 'string', maxLength: 3 }, uniqueItems: true },
          },
          additionalProperties: false,
        },
      },
    };
    const spec = fc.record(
      {
        size: fc.constantFrom(0, 1, 3, 5, 6, 2.5, '3'),
        color: fc.constantFrom('red', 'blue', 'green', 1),
        tags: fc.array(fc.constantFrom('a', 'bb', 'cccc'), { maxLength: 3 }),
        other: fc.constant(1),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.option(spec, { nil: undefined }), (sp) => {
        const data = sp === undefined ? {} : { spec: sp };
        assert.equal(conforms(data, s), verdict(data, s), JSON.stringify(data));
      }),
      { numRuns: 3000 },
    );
    assert.equal(conforms({ spec: { size: 3, color: 'red', tags: ['a', 'bb'] } }, s), true);
    assert.equal(conforms({ spec: { size: 3, color: 'red', tags: ['a', 'a'] } }, s), false);
    assert.equal(conforms({ spec: { size: 3, extra: 1 } }, s), false);
  });

  it('agrees on every number against every combination of limits and factors', () => {
    const numbers = [0, -0, 1, 2, 3, -1, 1.5, 2.5, 10, 1e3, NaN, Infinity, -2];
    const limits = [undefined, 0, 1, 1.5, -1, 2, 2.5, 10];
    const flags = [undefined, false, true];
    let checked = 0;
    for (const type of [undefined, 'integer', 'number'])
      for (const minimum of limits)
        for (const maximum of limits)
          for (const exclusive of flags)
            for (const multipleOf of [undefined, 2, 0.5, 0, -2, 1.5]) {
              const s = schemaOf({
                type,
                minimum,
                maximum,
                multipleOf,
                exclusiveMinimum: exclusive,
                exclusiveMaximum: exclusive === undefined ? undefined : !exclusive,
              });
              for (const n of numbers) {
                assert.equal(conforms(n, s), verdict(n, s), JSON.stringify({ s, n }));
                checked++;
              }
            }
    assert.ok(checked > 10000);
  });

  it('counts an astral character once against maxLength, as Go counts runes', () => {
    const s: JSONSchemaProps = { type: 'string', maxLength: 2 };
    assert.equal(conforms('\u{1F600}\u{1F600}', s), true);
    assert.equal(conforms('\u{1F600}\u{1F600}a', s), false);
    assert.equal(conforms('\uD800\uD800', s), true);
    assert.equal(conforms('\uD800\uD800\uD800', s), false);
  });
});
