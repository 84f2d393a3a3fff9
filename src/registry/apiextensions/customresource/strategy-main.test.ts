// The main resource's create and update validation and warnings, as kube 1.33's
// customResourceStrategy.Validate/ValidateUpdate/WarningsOnCreate/WarningsOnUpdate.
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
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer', maximum: 5 },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
  },
};

const options = (extra: Partial<CustomResourceStrategyOptions> = {}): CustomResourceStrategyOptions =>
  gizmoOptions(schema, extra);

const ctx = strategyContext();

const create = (o: CustomResourceStrategyOptions, obj: KubeObject): string[] =>
  customResourceStrategy(o)
    .validate(ctx, obj)
    .map((e) => e.error());

const update = (o: CustomResourceStrategyOptions, obj: KubeObject, old: KubeObject): string[] =>
  customResourceStrategy(o)
    .validateUpdate(ctx, obj, old)
    .map((e) => e.error());

const requiredKind = 'spec.template.kind: Required value: must not be empty';

describe('custom resource main-resource validation (kube 1.33 customResourceStrategy)', () => {
  it('reports only a wrong kind and apiVersion, kind first, of the validator steps', () => {
    const bad = { ...gizmo({ spec: { size: 9 } }, { name: 'Bad_Name' }), kind: 'Other' };
    assert.deepEqual(create(options(), bad), ['kind: Invalid value: "Other": must be Gizmo']);
    const both = { ...bad, apiVersion: 'example.com/v2' };
    const typeErrs = [
      'kind: Invalid value: "Other": must be Gizmo',
      'apiVersion: Invalid value: "example.com/v2": must be example.com/v1',
    ];
    assert.deepEqual(create(options(), both), typeErrs);
    assert.deepEqual(update(options(), both, gizmo({ spec: {} })), typeErrs);
  });

  it('checks embedded resources after the validator steps, even when the type is wrong', () => {
    const spec = { size: 9, template: { apiVersion: 'v1', metadata: { name: 'a/b' } } };
    assert.deepEqual(create(options(), gizmo({ spec })), [
      'spec.size: Invalid value: 9: spec.size in body should be less than or equal to 5',
      requiredKind,
      `spec.template.metadata.name: Invalid value: "a/b": may not contain '/'`,
    ]);
    assert.deepEqual(create(options(), { ...gizmo({ spec: { template: {} } }), kind: 'Other' }), [
      'kind: Invalid value: "Other": must be Gizmo',
      'spec.template.apiVersion: Required value: must not be empty',
      requiredKind,
    ]);
  });

  it('does not ratchet embedded resources on update', () => {
    const old = gizmo({ spec: { size: 9, template: { apiVersion: 'v1' } } });
    // The unchanged size ratchets; the unchanged embedded resource does not.
    assert.deepEqual(update(options(), structuredClone(old), old), [requiredKind]);
  });

  it('validates metadata on update as ValidateObjectMetaAccessorUpdate only', () => {
    const old = gizmo({ spec: {} });
    // Finalizer names, generation and name format are create-time (and common) checks.
    const obj = gizmo({ spec: {} }, { finalizers: ['a b'], labels: { 'a b': 'x' } });
    const errs = update(options(), obj, old);
    assert.equal(errs.length, 1);
    assert.match(errs[0] ?? '', /^metadata\.labels: Invalid value: "a b": name part must consist/);
    assert.deepEqual(update(options(), gizmo({ spec: {} }, { resourceVersion: '' }), old), [
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    ]);
    // On create the metadata is ObjectMeta's, with DNS-subdomain names.
    assert.deepEqual(create(options(), gizmo({ spec: {} }, { name: 'a_b' })), [
      'metadata.name: Invalid value: "a_b": a lowercase RFC 1123 subdomain must consist of lower case ' +
        "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
        "(e.g. 'example.com', regex used for validation is " +
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('does not run the rules after a blocking embedded-resource error', async () => {
    const withRules: JSONSchemaProps = {
      ...schema,
      'x-kubernetes-validations': [{ rule: 'false', message: 'never' }],
    };
    const { validator } = await compileCustomResourceRules(withRules);
    assert.ok(validator !== undefined);
    const o = options({ schema: withRules, ruleValidator: validator });
    assert.deepEqual(create(o, gizmo({ spec: { template: { apiVersion: 'v1' } } })), [
      requiredKind,
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was ' +
        'invalid; correct the existing errors to complete validation',
    ]);
  });
});

describe('custom resource finalizer warnings (kube 1.33 generateWarningsFromObj)', () => {
  const finalizers = ['b.example.com', 'plain', 'example.com/ok', 'orphan', 'kubernetes', 'plain'];
  const domain = 'prefer a domain-qualified finalizer name';
  const conflicts = 'to avoid accidental conflicts with other finalizer writers';

  it('warns on create of each finalizer name without a domain and path, in Go order', () => {
    const strategy = customResourceStrategy(options());
    assert.deepEqual(strategy.warningsOnCreate?.(ctx, gizmo({}, { finalizers })), [
      `metadata.finalizers: "b.example.com": ${domain} including a path (/) ${conflicts}`,
      `metadata.finalizers: "plain": ${domain} ${conflicts}`,
    ]);
  });

  it('warns on update only of the finalizers it adds; /status updates warn of none', () => {
    const old = gizmo({}, { finalizers: ['plain'] });
    const obj = gizmo({}, { finalizers: ['plain', 'new'] });
    assert.deepEqual(customResourceStrategy(options()).warningsOnUpdate?.(ctx, obj, old), [
      `metadata.finalizers: "new": ${domain} ${conflicts}`,
    ]);
    assert.deepEqual(customResourceStatusStrategy(options()).warningsOnUpdate?.(ctx, obj, old), []);
  });
});
