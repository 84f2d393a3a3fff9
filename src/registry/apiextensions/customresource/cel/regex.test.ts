import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { compileCustomResourceRules } from './compile.js';

const schemaWith = (rule: string): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: { s: { type: 'string', maxLength: 64 }, p: { type: 'string', maxLength: 64 } },
      'x-kubernetes-validations': [{ rule }],
    },
  },
});

async function compileErrors(rule: string): Promise<string[]> {
  const { errors } = await compileCustomResourceRules(schemaWith(rule));
  return errors.map((e) => e.detail);
}

async function evaluate(rule: string, spec: Record<string, unknown>): Promise<string[]> {
  const { errors, validator } = await compileCustomResourceRules(schemaWith(rule));
  assert.deepEqual(
    errors.map((e) => e.error()),
    [],
  );
  assert.ok(validator !== undefined);
  return validator.validate({ spec }, undefined).map((e) => e.error());
}

describe('CEL regular expressions are Go RE2', () => {
  // RE2 syntax ECMAScript lacks: each rule must hold for `yes` and fail for `no`.
  const re2Only: { rule: string; yes: string; no: string }[] = [
    { rule: "self.s.matches('^(?i)(abort|warn)?$')", yes: 'ABORT', no: 'abortx' },
    { rule: "self.s.matches('^(?s)a.b$')", yes: 'a\nb', no: 'a\n\nb' },
    { rule: "self.s.matches('b\\\\z')", yes: 'ab', no: 'ab\n' },
    { rule: "self.s.matches('^\\\\pL+$')", yes: 'Ünïcödé', no: 'a1' },
    { rule: "self.s.matches('^[[:alpha:]]+$')", yes: 'abc', no: 'a_c' },
    { rule: "self.s.matches('^\\\\Q*.*\\\\E$')", yes: '*.*', no: 'abc' },
    { rule: "self.s.find('(?i)WARN') == 'warn'", yes: 'a warn', no: 'a WARN' },
    { rule: "self.s.findAll('\\\\pN+') == ['12', '3']", yes: 'a12b3', no: 'a12b' },
  ];
  for (const c of re2Only) {
    it(`evaluates ${c.rule}`, async () => {
      assert.deepEqual(await evaluate(c.rule, { s: c.yes }), []);
      assert.deepEqual(await evaluate(c.rule, { s: c.no }), [
        `spec: Invalid value: "object": failed rule: ${c.rule}`,
      ]);
    });
  }

  it('applies a findAll limit and skips empty matches next to a match, as Go does', async () => {
    assert.deepEqual(await evaluate("self.s.findAll('[0-9]+', 1) == ['1']", { s: 'a1b22' }), []);
    assert.deepEqual(await evaluate("self.s.findAll('a*') == ['', 'aaa', '']", { s: 'baaac' }), []);
  });

  it('refuses a constant matches() pattern RE2 refuses when the CRD is written', async () => {
    assert.deepEqual(await compileErrors("self.s.matches('a(?=b)')"), [
      "compilation failed: ERROR: <input>:1:16: invalid matches argument\n | self.s.matches('a(?=b)')\n | ...............^",
    ]);
    assert.deepEqual(await compileErrors("self.s.matches('(a)\\\\1')"), [
      "compilation failed: ERROR: <input>:1:16: invalid matches argument\n | self.s.matches('(a)\\\\1')\n | ...............^",
    ]);
  });

  it('refuses a constant find() pattern when the program is built', async () => {
    assert.deepEqual(await compileErrors("self.s.find(')') == ''"), [
      'program instantiation failed: error parsing regexp: unexpected ): `)`',
    ]);
    assert.deepEqual(await compileErrors("self.s.findAll('(?!x)', 1) == []"), [
      'program instantiation failed: error parsing regexp: invalid or unsupported Perl syntax: `(?!`',
    ]);
  });

  it("reports a pattern from the object that RE2 refuses with Go's error", async () => {
    assert.deepEqual(await evaluate('self.s.matches(self.p)', { s: 'ab', p: 'a(?=b)' }), [
      'spec: Invalid value: "object": error parsing regexp: invalid or unsupported Perl syntax: `(?=` ' +
        'evaluating rule: self.s.matches(self.p)',
    ]);
    assert.deepEqual(await evaluate("self.s.find(self.p) == ''", { s: 'ab', p: '(a)\\1' }), [
      'spec: Invalid value: "object": Illegal regex: error parsing regexp: invalid escape sequence: `\\1` ' +
        "evaluating rule: self.s.find(self.p) == ''",
    ]);
    assert.deepEqual(await evaluate('self.s.matches(self.p)', { s: 'ab', p: '(?i)A' }), []);
  });
});
