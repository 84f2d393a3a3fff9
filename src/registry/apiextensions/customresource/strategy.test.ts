import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import type { KubeObject } from '../../../api/meta.js';
import { gizmo, gizmoOptions, strategyContext } from '../testing/gizmo.js';
import { compileCustomResourceRules } from './cel/compile.js';
import {
  customResourceStatusStrategy,
  customResourceStrategy,
  type CustomResourceStrategyOptions,
} from './strategy.js';

const schema: JSONSchemaProps = {
  type: 'object',
  required: ['spec'],
  properties: {
    spec: {
      type: 'object',
      properties: { size: { type: 'integer', maximum: 5 } },
      'x-kubernetes-validations': [{ rule: 'self.size < 4', message: 'size must be below 4' }],
    },
    status: {
      type: 'object',
      properties: {
        phase: { type: 'string', pattern: '^[a-z]+$' },
        note: { type: 'string' },
        replicas: { type: 'integer' },
        selector: { type: 'string' },
        kind: { type: 'string', maxLength: 3 },
      },
    },
  },
};

const scale = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.selector',
};

const options = (extra: Partial<CustomResourceStrategyOptions> = {}): CustomResourceStrategyOptions =>
  gizmoOptions(schema, extra);

interface Outcome {
  errors: string[];
  warnings: string[];
}

/** A /status update of `old` to `status`, as the store runs it: prepare, then validate. */
function statusUpdate(
  o: CustomResourceStrategyOptions,
  old: KubeObject,
  status: Record<string, unknown> | undefined,
): Outcome {
  const warnings: string[] = [];
  const ctx = strategyContext(warnings);
  const strategy = customResourceStatusStrategy(o);
  const obj = structuredClone(old);
  if (status === undefined) delete obj['status'];
  else obj['status'] = status;
  strategy.prepareForUpdate(ctx, obj, old);
  return { errors: strategy.validateUpdate(ctx, obj, old).map((e) => e.error()), warnings };
}

// An object stored under a looser schema: no spec at all, and a now-invalid status phase.
const stored = gizmo({ status: { phase: 'Weird', note: 'a' } });

describe('custom resource /status update validation (kube 1.33 statusStrategy.ValidateUpdate)', () => {
  it('validates only status against the status schema: no root required spec, no spec errors', () => {
    assert.deepEqual(statusUpdate(options(), stored, { phase: 'Weird', note: 'b' }).errors, []);
    // A spec the update cannot change is not looked at, invalid or not.
    const old = gizmo({ spec: { size: 9, extra: 'x' }, status: { note: 'a' } });
    assert.deepEqual(statusUpdate(options(), old, { note: 'b' }).errors, []);
  });

  it('reports a changed invalid status field at status.<field>, its text naming the path from status', () => {
    assert.deepEqual(statusUpdate(options(), stored, { phase: 'Odd', note: 'a' }).errors, [
      `status.phase: Invalid value: "Odd": phase in body should match '^[a-z]+$'`,
    ]);
  });

  it('validates a status the old object did not have without ratcheting', () => {
    const old = gizmo({ spec: {} });
    assert.deepEqual(statusUpdate(options(), old, { phase: 'Bad', replicas: 'x' }).errors, [
      `status.phase: Invalid value: "Bad": phase in body should match '^[a-z]+$'`,
      'status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"',
    ]);
  });

  it('never ratchets a kind directly under status (its validator takes it for type metadata)', () => {
    const old = gizmo({ status: { kind: 'toolong', note: 'a' } });
    assert.deepEqual(statusUpdate(options(), old, { kind: 'toolong', note: 'b' }).errors, [
      'status.kind: Too long: value is too long',
    ]);
  });

  it('checks the scale status paths, replicas and selector', () => {
    const o = options({ scale });
    const old = gizmo({ spec: { replicas: 1.5 }, status: { replicas: 1 } });
    // spec.replicas is not a /status concern (ValidateScaleSpec is not run).
    assert.deepEqual(statusUpdate(o, old, { replicas: 2, selector: 'a=b' }).errors, []);
    assert.deepEqual(statusUpdate(o, old, { replicas: -1 }).errors, [
      '.status.replicas: Invalid value: -1: should be a non-negative integer',
    ]);
    assert.deepEqual(statusUpdate(o, old, { replicas: 2147483648 }).errors, [
      '.status.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647',
    ]);
    assert.deepEqual(statusUpdate(o, old, { replicas: 1, selector: 7 }).errors, [
      'status.selector: Invalid value: "integer": selector in body must be of type string: "integer"',
      '.status.selector: Invalid value: "": .status.selector accessor error: 7 is of the type int64, expected string',
    ]);
  });

  it('runs the rules over the whole object: an unchanged spec failure is a warning, status ones are errors', async () => {
    const withRules: JSONSchemaProps = {
      ...schema,
      'x-kubernetes-validations': [
        {
          rule: '!has(self.status) || !has(self.status.note) || self.status.note != "bad"',
          message: 'bad note',
        },
        {
          rule: '!has(oldSelf.status) || oldSelf.status.note != "frozen" || self.status.note == "frozen"',
          message: 'note frozen',
        },
      ],
    };
    const { validator } = await compileCustomResourceRules(withRules);
    assert.ok(validator !== undefined);
    const o = options({ schema: withRules, ruleValidator: validator });
    const old = gizmo({ spec: { size: 4 }, status: { note: 'frozen' } });
    const kept = statusUpdate(o, old, { note: 'frozen', phase: 'ok' });
    assert.deepEqual(kept.errors, []);
    assert.deepEqual(kept.warnings, ['spec: Invalid value: "object": size must be below 4']);
    // A status schema error that is not blocking leaves the rules to run.
    const changed = statusUpdate(o, old, { note: 'bad', phase: 'Bad' });
    assert.deepEqual(changed.errors, [
      `status.phase: Invalid value: "Bad": phase in body should match '^[a-z]+$'`,
      '<nil>: Invalid value: "object": bad note',
      '<nil>: Invalid value: "object": note frozen',
    ]);
  });
});

describe('custom resource main-resource validation of the scale paths', () => {
  it('checks spec and status replicas on create and update, unratcheted', () => {
    const o = options({ scale, statusSubresource: false });
    const strategy = customResourceStrategy(o);
    const warnings: string[] = [];
    const ctx = strategyContext(warnings);
    const bad = gizmo({ spec: { replicas: -2 }, status: { replicas: 'many' } });
    const expected = [
      'status.replicas: Invalid value: "string": status.replicas in body must be of type integer: "string"',
      '.spec.replicas: Invalid value: -2: should be a non-negative integer',
      '.status.replicas: Invalid value: 0: .status.replicas accessor error: many is of the type string, expected int64',
    ];
    assert.deepEqual(
      strategy.validate(ctx, bad).map((e) => e.error()),
      expected,
    );
    // The schema error of the unchanged status ratchets; the scale checks do not.
    assert.deepEqual(
      strategy.validateUpdate(ctx, structuredClone(bad), bad).map((e) => e.error()),
      expected.slice(1),
    );
  });

  it('reports a path through a non-object in NestedFieldNoCopy words', () => {
    const strategy = customResourceStrategy(options({ scale }));
    const obj = gizmo({ spec: { replicas: 1 }, status: ['x'] });
    // Go names the path up to the field it could not look up in the list.
    const notAMap = (path: string): string =>
      `${path} accessor error: [x] is of the type []interface {}, expected map[string]interface{}`;
    assert.deepEqual(
      strategy.validate(strategyContext(), obj).map((e) => e.error()),
      [
        'status: Invalid value: "array": status in body must be of type object: "array"',
        `.status.replicas: Invalid value: 0: ${notAMap('.status.replicas')}`,
        `.status.selector: Invalid value: "": ${notAMap('.status.selector')}`,
      ],
    );
  });
});
