// The text decoder (go-decode.ts) reads bodies with repeated keys and bodies with numbers written
// with a fraction or an exponent. For any other body it must decode what the walk of JSON.parse's
// value decodes: the same object, the same type error, the same unknown fields. (A body's value is
// read as Go reads it, escaped lone surrogates as U+FFFD, before either: parse-go-json.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { parseWellFormed } from '../json/well-formed.js';
import { StructuralDecoder } from './decoder.js';
import type { FieldValidationDirective } from './decoder.js';

const scheme = builtinScheme();
const podKind = scheme.kindFor('v1', 'Pod');
if (podKind === undefined) throw new Error('no Pod kind');
const kind = podKind;

// Values right and wrong for the fields they land in, with escapes the text decoder reads itself.
const odd = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', '"', '\\', '\ud800', 'é', ':') }),
  fc.integer({ min: -5, max: 70000 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant({}),
  fc.constant([]),
);
const maybe = <T>(right: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: right }, { weight: 1, arbitrary: odd });
const container = fc.record(
  {
    name: maybe(fc.constantFrom('a', 'b')),
    image: maybe(fc.constant('nginx:1.25')),
    ports: maybe(
      fc.array(
        fc.record(
          {
            containerPort: maybe(fc.integer({ min: 1, max: 65535 })),
            protocol: maybe(fc.constant('TCP')),
            bogus: odd,
          },
          { requiredKeys: ['containerPort'] },
        ),
        { maxLength: 2 },
      ),
    ),
    resources: maybe(
      fc.record(
        {
          limits: fc.dictionary(
            fc.constantFrom('cpu', 'memory'),
            maybe(fc.constantFrom('1', '500m', '1Gi', 2)),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    env: maybe(
      fc.array(fc.record({ name: maybe(fc.constant('E')), value: odd }, { requiredKeys: [] }), {
        maxLength: 2,
      }),
    ),
    unknownField: odd,
  },
  { requiredKeys: ['name'] },
);
const pod = fc.record(
  {
    metadata: maybe(
      fc.record(
        {
          name: maybe(fc.constant('p')),
          labels: maybe(fc.dictionary(fc.constantFrom('a', 'b'), odd)),
          generation: odd,
        },
        { requiredKeys: [] },
      ),
    ),
    spec: maybe(
      fc.record(
        {
          containers: maybe(fc.array(container, { maxLength: 2 })),
          terminationGracePeriodSeconds: maybe(fc.integer({ min: 0, max: 60 })),
          nodeSelector: maybe(fc.dictionary(fc.constantFrom('x', 'y'), odd)),
          extra: odd,
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

describe('the text decoder', () => {
  it('decodes a body as the walk of its parsed value does', () => {
    const decoder = new StructuralDecoder(scheme);
    fc.assert(
      fc.property(pod, fc.constantFrom<FieldValidationDirective>('Ignore', 'Strict'), (body, mode) => {
        const text = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', ...body });
        // The same body with `kind` repeated (the same value) goes the text decoder's way.
        const repeated = `{"kind":"Pod",${text.slice(1)}`;
        const walked = decoder.decodeParsed({ value: parseWellFormed(text), text }, kind, {
          fieldValidation: mode,
        });
        const read = decoder.decodeParsed({ value: parseWellFormed(repeated), text: repeated }, kind, {
          fieldValidation: mode,
        });
        assert.equal(read.error, walked.error);
        if (walked.error !== undefined) return;
        assert.deepEqual(read.object, walked.object);
        const expected = mode === 'Strict' ? ['duplicate field "kind"', ...walked.strictErrors] : [];
        assert.deepEqual([...read.strictErrors].sort(), expected.sort());
      }),
      { numRuns: 400 },
    );
  });
});
