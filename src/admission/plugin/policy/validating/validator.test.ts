// Compiling and evaluating one policy without stores: variables, match conditions, decisions,
// message fallbacks, audit annotations and the texts of failing expressions.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ValidatingAdmissionPolicy } from '../../../../api/admissionregistration/v1/policy.js';
import { loadCel, type CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import { toCel } from '../../../../registry/apiextensions/customresource/cel/values.js';
import { compilePolicy } from './compiled-policy.js';
import { validate, type Activation, type PolicyDecision } from './validator.js';

const activation = (replicas: number): Activation => ({
  object: toCel({ metadata: { name: 'web' }, spec: { replicas } }, undefined),
  oldObject: null,
  request: toCel({ operation: 'CREATE', namespace: 'ns' }, undefined),
  params: toCel({ data: { max: '3' } }, undefined),
  namespaceObject: null,
});

const policyOf = (spec: ValidatingAdmissionPolicy['spec'] & object): ValidatingAdmissionPolicy => ({
  metadata: { name: 'p', uid: 'u', generation: 2 },
  spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, ...spec },
});

describe('policy validator', () => {
  let lib: CelLibrary;
  before(async () => {
    lib = await loadCel();
  });

  it('evaluates variables in order and falls back from messageExpression to message to the expression', () => {
    const compiled = compilePolicy(
      lib,
      policyOf({
        variables: [
          { name: 'max', expression: 'int(params.data.max)' },
          { name: 'over', expression: 'object.spec.replicas > variables.max' },
        ],
        validations: [
          {
            expression: '!variables.over',
            messageExpression: "'over by ' + string(object.spec.replicas - variables.max)",
          },
          { expression: '!variables.over', message: '  static  ', messageExpression: '"a\\nb"' },
          { expression: ' !variables.over ' },
          { expression: 'variables.over', reason: 'Forbidden' },
        ],
      }),
    );
    assert.deepEqual([compiled.uid, compiled.generation], ['u', 2]);
    const result = validate(lib, compiled, { activation: activation(5), failurePolicy: 'Fail' });
    assert.deepEqual(result.decisions, [
      { action: 'deny', evaluation: 'deny', message: 'over by 2', reason: 'Invalid' },
      { action: 'deny', evaluation: 'deny', message: 'static', reason: 'Invalid' },
      {
        action: 'deny',
        evaluation: 'deny',
        message: 'failed expression: !variables.over',
        reason: 'Invalid',
      },
      { action: 'admit', evaluation: 'admit', message: '' },
    ]);
  });

  it('a false match condition skips the policy; an erroring one fails it per failurePolicy', () => {
    const skip = compilePolicy(
      lib,
      policyOf({
        matchConditions: [
          { name: 'boom', expression: 'object.nope' },
          { name: 'create-only', expression: "request.operation == 'UPDATE'" },
        ],
        validations: [{ expression: 'false' }],
      }),
    );
    assert.deepEqual(validate(lib, skip, { activation: activation(1), failurePolicy: 'Fail' }).decisions, []);
    const failing = compilePolicy(
      lib,
      policyOf({
        matchConditions: [{ name: 'boom', expression: 'object.nope' }],
        validations: [{ expression: 'false' }],
      }),
    );
    assert.deepEqual(validate(lib, failing, { activation: activation(1), failurePolicy: 'Fail' }).decisions, [
      {
        action: 'deny',
        evaluation: 'error',
        message: "expression 'object.nope' resulted in error: no such key: nope",
      },
    ]);
    assert.equal(
      validate(lib, failing, { activation: activation(1), failurePolicy: 'Ignore' }).decisions[0]?.action,
      'admit',
    );
  });

  it('a stored expression that does not compile is an error decision with kube’s text', () => {
    const compiled = compilePolicy(
      lib,
      policyOf({ validations: [{ expression: 'object.spec.replicas >' }] }),
    );
    const decision = validate(lib, compiled, {
      activation: activation(1),
      failurePolicy: 'Fail',
    }).decisions.at(0);
    assert.ok(decision !== undefined);
    assert.equal(decision.action, 'deny');
    assert.equal(decision.evaluation, 'error');
    assert.match(
      decision.message,
      /^compilation error: compilation failed: ERROR: <input>:1:\d+: Syntax error/,
    );
  });

  it('publishes, excludes and refuses audit annotation values as kube does', () => {
    const compiled = compilePolicy(
      lib,
      policyOf({
        validations: [{ expression: 'true' }],
        auditAnnotations: [
          { key: 'replicas', valueExpression: "' ' + string(object.spec.replicas) + ' '" },
          { key: 'none', valueExpression: 'null' },
          { key: 'empty', valueExpression: "'  '" },
          { key: 'number', valueExpression: 'object.spec.replicas' },
        ],
      }),
    );
    assert.deepEqual(
      validate(lib, compiled, { activation: activation(2), failurePolicy: 'Fail' }).auditAnnotations,
      [
        { key: 'replicas', action: 'publish', value: '2' },
        { key: 'none', action: 'exclude' },
        { key: 'empty', action: 'exclude' },
        {
          key: 'number',
          action: 'error',
          error:
            "valueExpression 'object.spec.replicas' resulted in unsupported return type: int. Return type must be either string or null.",
        },
      ],
    );
  });

  it('an expression past the per-call cost limit fails; past the budget, the policy has one error', () => {
    const big = (text: string): Activation => ({
      ...activation(1),
      object: toCel({ data: { text } }, undefined),
    });
    const text = 'a'.repeat(1_000_000);
    // contains() over the text costs a tenth of it times a tenth of the substring: 100,000 × 5.
    const costly = `!object.data.text.contains('${'b'.repeat(41)}')`;
    const overLimit = compilePolicy(
      lib,
      policyOf({ validations: [{ expression: `!object.data.text.contains('${'b'.repeat(101)}')` }] }),
    );
    assert.deepEqual(validate(lib, overLimit, { activation: big(text), failurePolicy: 'Fail' }).decisions, [
      {
        action: 'deny',
        evaluation: 'error',
        message: `expression '!object.data.text.contains('${'b'.repeat(101)}')' resulted in error: operation cancelled: actual cost limit exceeded`,
      },
    ]);
    const overBudget = compilePolicy(
      lib,
      policyOf({ validations: Array.from({ length: 20 }, () => ({ expression: costly })) }),
    );
    const outOfBudget = {
      action: 'admit',
      evaluation: 'error',
      message: 'validation failed due to running out of cost budget, no further validation rules will be run',
    };
    assert.deepEqual(validate(lib, overBudget, { activation: big(text), failurePolicy: 'Ignore' }), {
      decisions: [outOfBudget],
      auditAnnotations: [],
    });
    const admitted = validate(lib, overBudget, {
      activation: big(text.slice(0, 100_000)),
      failurePolicy: 'Fail',
    });
    assert.equal(admitted.decisions.length, 20);
    assert.ok(admitted.decisions.every((d) => d.action === 'admit' && d.evaluation === 'admit'));
  });

  describe('variables, evaluated on first read (kube’s composition)', () => {
    const big = (text: string): Activation => ({
      ...activation(1),
      object: toCel({ data: { text }, spec: {} }, undefined),
    });
    // contains() over a 1,000,000-character text costs 100,000 × a tenth of the substring.
    const costing = (tenths: number): string => `object.data.text.contains('${'b'.repeat(tenths * 10 - 9)}')`;
    const text = 'a'.repeat(1_000_000);

    it('a failing variable reads as kube’s error, and one nothing reads does not fail the policy', () => {
      const compiled = compilePolicy(
        lib,
        policyOf({
          variables: [{ name: 'limit', expression: 'object.spec.limit' }],
          validations: [
            { expression: '!has(object.spec.limit) || variables.limit < 5' },
            { expression: 'variables.limit < 5' },
          ],
        }),
      );
      assert.deepEqual(
        validate(lib, compiled, { activation: activation(1), failurePolicy: 'Fail' }).decisions,
        [
          { action: 'admit', evaluation: 'admit', message: '' },
          {
            action: 'deny',
            evaluation: 'error',
            message:
              'expression \'variables.limit < 5\' resulted in error: composited variable "limit" fails to evaluate: no such key: limit',
          },
        ],
      );
    });

    it('has() of a variable evaluates it: a failing one is its error, as kube’s lazy map answers', () => {
      const compiled = compilePolicy(
        lib,
        policyOf({
          variables: [
            { name: 'limit', expression: 'object.spec.limit' },
            { name: 'one', expression: '1' },
          ],
          validations: [
            { expression: 'has(variables.one) && variables.one == 1' },
            { expression: '!has(variables.limit) || variables.limit < 5' },
            { expression: "'limit' in variables" },
          ],
        }),
      );
      const error = (expression: string): PolicyDecision => ({
        action: 'deny',
        evaluation: 'error',
        message: `expression '${expression}' resulted in error: composited variable "limit" fails to evaluate: no such key: limit`,
      });
      assert.deepEqual(
        validate(lib, compiled, { activation: activation(1), failurePolicy: 'Fail' }).decisions,
        [
          { action: 'admit', evaluation: 'admit', message: '' },
          error('!has(variables.limit) || variables.limit < 5'),
          error("'limit' in variables"),
        ],
      );
    });

    it('match conditions read variables in a phase of their own', () => {
      const compiled = compilePolicy(
        lib,
        policyOf({
          variables: [
            { name: 'replicas', expression: 'object.spec.replicas' },
            { name: 'missing', expression: 'object.spec.missing' },
          ],
          matchConditions: [{ name: 'scaled', expression: 'variables.replicas > 1' }],
          validations: [{ expression: 'variables.replicas < 3' }],
        }),
      );
      const decide = (replicas: number): readonly PolicyDecision[] =>
        validate(lib, compiled, { activation: activation(replicas), failurePolicy: 'Fail' }).decisions;
      assert.deepEqual(decide(1), []);
      assert.deepEqual(decide(2), [{ action: 'admit', evaluation: 'admit', message: '' }]);
      assert.equal(decide(3)[0]?.evaluation, 'deny');
      const failing = compilePolicy(
        lib,
        policyOf({
          variables: [{ name: 'missing', expression: 'object.spec.missing' }],
          matchConditions: [{ name: 'reads', expression: 'variables.missing == 1' }],
          validations: [{ expression: 'true' }],
        }),
      );
      assert.deepEqual(
        validate(lib, failing, { activation: activation(1), failurePolicy: 'Fail' }).decisions,
        [
          {
            action: 'deny',
            evaluation: 'error',
            message:
              'expression \'variables.missing == 1\' resulted in error: composited variable "missing" fails to evaluate: no such key: missing',
          },
        ],
      );
    });

    it('a variable is evaluated once a phase however often it is read, and not at all when unread', () => {
      // Twenty reads of a variable costing 500,000: 10,000,000 if each read evaluated it.
      const once = compilePolicy(
        lib,
        policyOf({
          variables: [{ name: 'hit', expression: costing(5) }],
          validations: Array.from({ length: 20 }, () => ({ expression: '!variables.hit' })),
        }),
      );
      const decisions = validate(lib, once, { activation: big(text), failurePolicy: 'Fail' }).decisions;
      assert.equal(decisions.length, 20);
      assert.ok(decisions.every((d) => d.evaluation === 'admit'));
      // Nineteen validations at 500,000 leave less than the unread variable's 600,000.
      const unread = compilePolicy(
        lib,
        policyOf({
          variables: [{ name: 'unread', expression: costing(6) }],
          validations: Array.from({ length: 19 }, () => ({ expression: `!${costing(5)}` })),
        }),
      );
      const admitted = validate(lib, unread, { activation: big(text), failurePolicy: 'Fail' }).decisions;
      assert.ok(admitted.every((d) => d.evaluation === 'admit'));
    });

    it('message expressions run for every validation on what the validations left of the budget', () => {
      const compiled = compilePolicy(
        lib,
        policyOf({
          validations: [
            { expression: `!${costing(5)}`, messageExpression: `string(${costing(5)})` },
            ...Array.from({ length: 18 }, () => ({ expression: `!${costing(5)}` })),
            { expression: 'false', messageExpression: `string(${costing(5)})` },
          ],
        }),
      );
      // 9,500,000 for the validations, 1,000,000 for the two messages: past the budget.
      const decisions = validate(lib, compiled, { activation: big(text), failurePolicy: 'Fail' }).decisions;
      assert.equal(decisions.length, 20);
      assert.ok(
        decisions.every(
          (d) =>
            d.evaluation === 'error' &&
            d.message ===
              'failed messageExpression: validation failed due to running out of cost budget, no further validation rules will be run',
        ),
      );
    });
  });
});
