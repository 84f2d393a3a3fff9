import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileCel } from '../../../admissionregistration/policy-cel.js';
import type { CelT } from './check.js';
import { compileCustomResourceRules } from './compile.js';
import { loadCel } from './load.js';

const lib = await loadCel();
const scope = new Map<string, CelT>([['object', { kind: 'dyn' }]]);
const compileError = (source: string): string | undefined => {
  const out = compileCel(lib, { source, scope, returns: 'bool' });
  return out.ok ? undefined : out.error;
};

// cel-go's AST validators, which kube's environment runs on every expression it compiles.
describe('CEL literal validators', () => {
  it('refuse literal arguments that fail at run time, as cel-go words it', () => {
    assert.equal(
      compileError("duration('1d') > duration('1s')"),
      "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1d') > duration('1s')\n | .........^",
    );
    assert.equal(
      compileError("timestamp('nope') < timestamp('2020-01-01T00:00:00Z')"),
      "compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('nope') < timestamp('2020-01-01T00:00:00Z')\n | ..........^",
    );
    assert.equal(
      compileError("duration('1h') > duration('1s') && timestamp('2020-01-01T00:00:00Z') != null"),
      undefined,
    );
  });

  it('refuse list and map literals of mixed types, but for format() arguments', () => {
    assert.equal(
      compileError("[1, 'a'].size() == 2"),
      "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() == 2\n | ....^",
    );
    assert.match(compileError('[1, 2.0].size() == 2') ?? '', /expected type 'int' but found 'double'/);
    assert.match(
      compileError("{1: 'a', 'b': 'c'}.size() == 2") ?? '',
      /1:10: expected type 'int' but found 'string'/,
    );
    assert.match(
      compileError("{'a': 1, 'b': 'x'}.size() == 2") ?? '',
      /1:15: expected type 'int' but found 'string'/,
    );
    assert.match(
      compileError("[duration('1s'), timestamp('2020-01-01T00:00:00Z')].size() == 2") ?? '',
      /expected type 'google.protobuf.Duration' but found 'google.protobuf.Timestamp'/,
    );
    for (const fine of [
      "'%d %s'.format([1, 'a']) == '1 a'",
      "'%s'.format([[1, 'a']]) != ''",
      "[1, dyn('a')].size() == 2",
      "['a', 'b'].all(x, x in ['a', 'b'])",
    ])
      assert.equal(compileError(fine), undefined, fine);
  });

  it('refuse a CRD rule with a mixed list, as kube refuses the CRD', async () => {
    const { errors } = await compileCustomResourceRules({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { n: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: "self.n in [1, '2']" }],
        },
      },
    });
    assert.deepEqual(
      errors.map((e) => e.error()),
      [
        'openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.n in [1, \'2\']", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:15: expected type \'int\' but found \'string\'\n | self.n in [1, \'2\']\n | ..............^',
      ],
    );
  });
});
