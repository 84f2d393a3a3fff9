import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { evaluateCel } from '../../testing/evaluate-cel.js';
import { compileCustomResourceRules } from './compile.js';
import { estimateCost } from './cost.js';
import { loadCel } from './load.js';
import { markOptionalSyntax } from './optional-marks.js';

// The optional syntax and functions as cel-go's OptionalTypes library documents them
// (cel/library.go) and its interpreter evaluates them.

describe('CEL optional syntax', () => {
  it('finds the marks after a dot, an index bracket and a literal element, and blanks them in place', () => {
    const marked = (s: string): unknown => {
      const m = markOptionalSyntax(s);
      return m === undefined
        ? undefined
        : {
            text: m.text,
            selects: [...m.marks.selects],
            indexes: [...m.marks.indexes],
            elements: [...m.marks.elements],
            entries: [...m.marks.entries],
          };
    };
    assert.deepEqual(marked('a.?b.?c'), {
      text: 'a. b. c',
      selects: [1, 4],
      indexes: [],
      elements: [],
      entries: [],
    });
    assert.deepEqual(marked('m[?k][?0]'), {
      text: 'm[ k][ 0]',
      selects: [],
      indexes: [1, 5],
      elements: [],
      entries: [],
    });
    assert.deepEqual(marked('[a, ?b, [?c]]'), {
      text: '[a,  b, [ c]]',
      selects: [],
      indexes: [],
      elements: [
        [0, [1]],
        [8, [0]],
      ],
      entries: [],
    });
    assert.deepEqual(marked("{'k': 1, ?'j': x}"), {
      text: "{'k': 1,  'j': x}",
      selects: [],
      indexes: [],
      elements: [],
      entries: [[0, [1]]],
    });
    // The conditional's `?`, and `?` in strings, comments and raw or triple-quoted strings, are not marks.
    for (const s of [
      'a ? b : c',
      "x == 'a.?b' ? [1] : [2]",
      'r"[?x]" + """.?y""" == b\'.?\'',
      'f(a) ? g(b)[0] : {1: 2}',
      'a // .?b\n + 1',
      "'it\\'s [?'",
    ])
      assert.equal(marked(s), undefined, s);
  });

  it('evaluates optional selects, indexes and chains as cel-go does', async () => {
    const cases: [string, unknown][] = [
      ["{'a': 1}.?a.hasValue()", true],
      ["{'a': 1}.?b.hasValue()", false],
      ["{'a': 1}.?a.value()", 1n],
      ["{'a': 1}.?b.orValue(5)", 5n],
      ["{'a': {'b': 2}}.?a.b.value()", 2n],
      ["{'a': {'b': 2}}.?x.b.hasValue()", false],
      ["{'a': {'b': 2}}.?a.c", 'error: no such key: c'],
      ["{'a': {'b': 2}}.?a.?c.orValue(7)", 7n],
      ["{'a': [1, 2]}.?a[1].value()", 2n],
      ['[1, 2, 3][?1].value()', 2n],
      ['[1, 2, 3][?5].hasValue()', false],
      ["{'k': 'v'}[?'k'].value()", 'v'],
      ['{1: 2}[?1.0].value()', 2n],
      ["{'a': 1}.? a.value()", 1n],
      ["{'a': 1}.?a.hasValue() ? 'y' : 'n'", 'y'],
      ["'a?b'.size()", 3n],
    ];
    for (const [expr, want] of cases) assert.deepEqual(await evaluateCel(expr), want, expr);
  });

  it('evaluates the optional library', async () => {
    const list = async (expr: string): Promise<unknown[]> => [
      ...((await evaluateCel(expr)) as Iterable<unknown>),
    ];
    const cases: [string, unknown][] = [
      ['optional.of(1) == optional.of(1)', true],
      ['optional.of(1) == optional.of(2)', false],
      ['optional.of(1) == optional.of(1.0)', true],
      ['optional.of([1, 2]) == optional.of([1, 2])', true],
      ["optional.of({'a': 1, 'b': 2}) == optional.of({'b': 2, 'a': 1})", true],
      ['optional.of(1) == optional.none()', false],
      ['optional.none() == optional.none()', true],
      ["optional.ofNonZeroValue('').hasValue()", false],
      ['optional.ofNonZeroValue([]).hasValue()', false],
      ['optional.ofNonZeroValue(0).hasValue()', false],
      ["optional.ofNonZeroValue('x').value()", 'x'],
      ['optional.none().or(optional.of(3)).value()', 3n],
      ['optional.of(1).or(optional.of(3)).value()', 1n],
      ['optional.none().value()', 'error: optional.none() dereference'],
      ['optional.of(4).optMap(x, x * 2).value()', 8n],
      ['optional.none().optMap(x, x * 2).hasValue()', false],
      ["optional.of({'s': 1}).optFlatMap(x, x.?s).value()", 1n],
      ["optional.of({'s': 1}).optFlatMap(x, x.?t).hasValue()", false],
      ['[].first().hasValue()', false],
      ['[5, 6].first().value()', 5n],
      ['[5, 6].last().value()', 6n],
    ];
    for (const [expr, want] of cases) assert.deepEqual(await evaluateCel(expr), want, expr);
    assert.deepEqual(await list('[1, ?optional.none(), ?optional.of(3)]'), [1n, 3n]);
    assert.deepEqual(await list('optional.unwrap([optional.of(42), optional.none()])'), [42n]);
    assert.deepEqual(await list('[optional.of(42), optional.none()].unwrapOpt()'), [42n]);
  });

  it('builds map literals with optional entries, and refuses them in message literals', async () => {
    const map = async (expr: string): Promise<unknown> => {
      const out = await evaluateCel(expr);
      return typeof out === 'string' ? out : Object.fromEntries(out as ReadonlyMap<string, unknown>);
    };
    assert.deepEqual(await map("{'a': 1, ?'b': optional.none(), ?'c': optional.of(3)}"), { a: 1n, c: 3n });
    assert.deepEqual(await map("{?'a': {'x': 1}.?x}"), { a: 1n });
    assert.deepEqual(await map("{'a': 1, ?'a': optional.of(2)}"), 'error: map key conflict: a');
    const { parse } = await loadCel();
    assert.throws(() => parse('Msg{?f: optional.of(1)}'), /unsupported syntax '\?'/);
  });
});

describe('CEL optional types in CRD rules', () => {
  const schema = (rule: Record<string, unknown>): JSONSchemaProps => ({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          tags: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 8 } },
        },
        'x-kubernetes-validations': [rule as { rule: string }],
      },
    },
  });
  const errorsOf = async (rule: Record<string, unknown>): Promise<string[]> =>
    (await compileCustomResourceRules(schema(rule))).errors.map((e) => e.detail);
  /** The error texts of a spec validated by an optionalOldSelf rule "replicas may only grow". */
  const growthRule = async (
    rule: string,
  ): Promise<(obj: Record<string, unknown>, old?: Record<string, unknown>) => string[]> => {
    const { errors, validator } = await compileCustomResourceRules(
      schema({ rule, optionalOldSelf: true, message: 'replicas may only grow' }),
    );
    assert.deepEqual(errors, []);
    assert.ok(validator !== undefined);
    return (obj, old) => validator.validate(obj, old).map((e) => e.error());
  };

  it('checks an optional select against the schema, and types what the optional holds', async () => {
    assert.deepEqual(await errorsOf({ rule: 'self.?replicas.orValue(1) > 0' }), []);
    assert.deepEqual(await errorsOf({ rule: "self.?tags[?0].orValue('') != 'x'" }), []);
    assert.deepEqual(await errorsOf({ rule: 'self.?nope.hasValue()' }), [
      "compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.?nope.hasValue()\n | ....^",
    ]);
    assert.deepEqual(await errorsOf({ rule: 'self.?replicas' }), ['cel expression must evaluate to a bool']);
    // An optional of a scalar is sized as the scalar (cel-go's isScalar), so comparing two is cheap.
    assert.deepEqual(
      await errorsOf({ rule: 'self.?replicas == oldSelf.?replicas', optionalOldSelf: true }),
      [],
    );
    assert.deepEqual(await errorsOf({ rule: 'oldSelf.value().nope == 1', optionalOldSelf: true }), [
      "compilation failed: ERROR: <input>:1:16: undefined field 'nope'\n | oldSelf.value().nope == 1\n | ...............^",
    ]);
  });

  it('refuses an operator over an optional and a scalar, as no overload of cel-go takes them', async () => {
    assert.deepEqual(await errorsOf({ rule: 'self.?replicas > 0' }), [
      "compilation failed: ERROR: <input>:1:16: found no matching overload for '_>_' applied to '(optional_type(int), int)'\n" +
        ' | self.?replicas > 0\n | ...............^',
    ]);
    assert.deepEqual(await errorsOf({ rule: '1 == self.?replicas' }), [
      "compilation failed: ERROR: <input>:1:3: found no matching overload for '_==_' applied to '(int, optional_type(int))'\n" +
        ' | 1 == self.?replicas\n | ..^',
    ]);
    // Comparing with null, or two optionals, is left to the evaluation.
    assert.deepEqual(await errorsOf({ rule: 'self.?replicas != null' }), []);
  });

  it('runs rules with optionals, and binds oldSelf as an optional with optionalOldSelf', async () => {
    const texts = await growthRule(
      '!oldSelf.hasValue() || self.?replicas.orValue(0) >= oldSelf.?replicas.orValue(0)',
    );
    assert.deepEqual(texts({ spec: { replicas: 1 } }), []);
    assert.deepEqual(texts({ spec: { replicas: 2 } }, { spec: {} }), []);
    assert.deepEqual(texts({ spec: {} }, { spec: { replicas: 2 } }), [
      'spec: Invalid value: "object": replicas may only grow',
    ]);
  });

  it('reads a member of an optional oldSelf as cel-go does: an optional, strict where the value is', async () => {
    const texts = await growthRule('self.replicas >= oldSelf.replicas.orValue(0)');
    assert.deepEqual(texts({ spec: { replicas: 1 } }), []);
    assert.deepEqual(texts({ spec: { replicas: 3 } }, { spec: { replicas: 2 } }), []);
    assert.deepEqual(texts({ spec: { replicas: 1 } }, { spec: { replicas: 2 } }), [
      'spec: Invalid value: "object": replicas may only grow',
    ]);
    // Present but without the member: cel-go's strict select fails the rule with its error.
    assert.match(texts({ spec: { replicas: 1 } }, { spec: {} }).join(), /no such key: replicas/);
  });

  it("estimates an optional access at cel-go's cost of a call", async () => {
    const { parse } = await loadCel();
    // `_?._`: 1 + self (1); orValue: 1 + that; `_>_`: 1 + that.
    assert.deepEqual(
      estimateCost(parse('self.?replicas.orValue(1) > 0'), { root: undefined, vars: new Map() }),
      {
        min: 4n,
        max: 4n,
      },
    );
  });
});
