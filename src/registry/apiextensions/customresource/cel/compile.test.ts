import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { compileCustomResourceRules } from './compile.js';

const texts = (errs: { error(): string }[]): string[] => errs.map((e) => e.error());

const withRule = (rule: Record<string, unknown>, spec: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: { replicas: { type: 'integer' }, name: { type: 'string' } },
      'x-kubernetes-validations': [rule as { rule: string }],
      ...spec,
    },
  },
});

describe('compileCustomResourceRules', () => {
  it('has no validator and loads nothing without rules', async () => {
    const out = await compileCustomResourceRules({ type: 'object', properties: { a: { type: 'string' } } });
    assert.deepEqual(out, { errors: [], validator: undefined });
  });

  it('reports a syntax error under the rule with the rule as value', async () => {
    const path = FieldPath.of('spec', 'versions').index(0).child('schema', 'openAPIV3Schema');
    const { errors } = await compileCustomResourceRules(withRule({ rule: 'self.replicas >' }), { path });
    assert.deepEqual(texts(errors), [
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ' +
        'apiextensions.ValidationRule{Rule:"self.replicas >", Message:"", MessageExpression:"", ' +
        'Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
        'compilation failed: ERROR: <input>:1:15: Syntax error: found > but expecting end of input\n' +
        ' | self.replicas >\n | ..............^',
    ]);
  });

  it('reports undefined fields, undeclared references and non-bool rules', async () => {
    const bodies = async (rule: string): Promise<string[]> =>
      (await compileCustomResourceRules(withRule({ rule }))).errors.map((e) => e.detail);
    assert.deepEqual(await bodies('self.nope == 1'), [
      "compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^",
    ]);
    assert.deepEqual(await bodies('self.constructor == 1'), [
      "compilation failed: ERROR: <input>:1:5: undefined field 'constructor'\n | self.constructor == 1\n | ....^",
    ]);
    assert.deepEqual(await bodies('self.replicas > other'), [
      "compilation failed: ERROR: <input>:1:17: undeclared reference to 'other' (in container '')\n" +
        ' | self.replicas > other\n | ................^',
    ]);
    assert.deepEqual(await bodies('self.replicas + 1'), ['cel expression must evaluate to a bool']);
    assert.deepEqual(await bodies('self.name.nosuch()'), [
      "compilation failed: ERROR: <input>:1:10: undeclared reference to 'nosuch' (in container '')\n" +
        ' | self.name.nosuch()\n | .........^',
    ]);
    assert.deepEqual(await bodies('self.name.startsWith("a") && self.replicas.isSorted() == false'), []);
  });

  it('refuses operators no overload takes for the operand types, as cel-go does', async () => {
    const errorsOf = async (rule: Record<string, unknown>): Promise<string[]> =>
      (await compileCustomResourceRules(withRule(rule))).errors.map((e) => e.detail);
    assert.deepEqual(await errorsOf({ rule: "self.replicas == '3'" }), [
      "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'\n" +
        " | self.replicas == '3'\n | ..............^",
    ]);
    assert.deepEqual(
      await errorsOf({ rule: 'self.replicas > 0', messageExpression: "'replicas: ' + self.replicas" }),
      [
        "messageExpression compilation failed: ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(string, int)'\n" +
          " | 'replicas: ' + self.replicas\n | .............^",
      ],
    );
    // Numbers compare across types (kube's CrossTypeNumericComparisons); strings concatenate.
    assert.deepEqual(await errorsOf({ rule: "self.replicas < 2.5 && self.name + '-x' != ''" }), []);
  });

  it('checks messageExpression and optionalOldSelf', async () => {
    const { errors } = await compileCustomResourceRules(
      withRule({
        rule: 'self.replicas > 0',
        messageExpression: '1 + 2',
        optionalOldSelf: true,
      }),
    );
    const at = 'openAPIV3Schema.properties[spec].x-kubernetes-validations[0]';
    assert.deepEqual(
      errors.map((e) => `${e.field}: ${e.detail}`),
      [
        `${at}.messageExpression: messageExpression must evaluate to a string`,
        `${at}.optionalOldSelf: may not be set if oldSelf is not used in rule`,
      ],
    );
  });

  it('refuses oldSelf below a list that is not a map list', async () => {
    const { errors } = await compileCustomResourceRules({
      type: 'object',
      properties: {
        list: {
          type: 'array',
          maxItems: 10,
          items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
        },
      },
    });
    assert.deepEqual(texts(errors), [
      'openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": ' +
        'oldSelf cannot be used on the uncorrelatable portion of the schema within openAPIV3Schema.properties[list]',
    ]);
  });
});
