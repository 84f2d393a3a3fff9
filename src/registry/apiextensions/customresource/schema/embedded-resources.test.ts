import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { embeddedResourceValidator } from './embedded-resources.js';

const embedded: JSONSchemaProps = {
  type: 'object',
  'x-kubernetes-embedded-resource': true,
  'x-kubernetes-preserve-unknown-fields': true,
};

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: embedded,
        list: { type: 'array', items: embedded },
        byName: { type: 'object', additionalProperties: embedded },
        plain: { type: 'object', properties: { kind: { type: 'string' } } },
      },
    },
  },
};

function errorsOf(spec: Record<string, unknown>): string[] {
  const validate = embeddedResourceValidator(schema);
  assert.ok(validate !== undefined);
  return validate({ apiVersion: 'example.com/v1', kind: 'Gizmo', spec }).map((e) => e.error());
}

const ok = { apiVersion: 'v1', kind: 'Pod' };

describe('embedded resource validation (kube 1.33 schema/objectmeta Validate)', () => {
  it('is absent for a schema without embedded resources', () => {
    assert.equal(
      embeddedResourceValidator({ type: 'object', properties: { spec: { type: 'object' } } }),
      undefined,
    );
  });

  it('requires apiVersion and kind, not metadata; other objects are not embedded resources', () => {
    assert.deepEqual(errorsOf({ template: ok, plain: {} }), []);
    assert.deepEqual(errorsOf({ template: { metadata: { name: 'x' } } }), [
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
    ]);
  });

  it('checks apiVersion and kind as kube words it', () => {
    assert.deepEqual(errorsOf({ template: { apiVersion: '', kind: '' } }), [
      'spec.template.apiVersion: Invalid value: "": must not be empty',
      'spec.template.kind: Invalid value: "": must not be empty',
    ]);
    assert.deepEqual(errorsOf({ template: { apiVersion: 'a/b/c', kind: 7 } }), [
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      'spec.template.kind: Invalid value: 7: must be a string',
    ]);
    assert.deepEqual(errorsOf({ template: { apiVersion: '/', kind: 'Big_Pod' } }), [
      'spec.template.kind: Invalid value: "Big_Pod": may have mixed case, but should otherwise match: ' +
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an " +
        "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', " +
        "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('validates metadata as ObjectMeta with path-segment names, a namespace only when given', () => {
    assert.deepEqual(errorsOf({ template: { ...ok, metadata: {} } }), []);
    assert.deepEqual(errorsOf({ template: { ...ok, metadata: null } }), []);
    assert.deepEqual(errorsOf({ template: { ...ok, metadata: { name: 'Not_A_DNS.Name' } } }), []);
    assert.deepEqual(
      errorsOf({
        template: { ...ok, metadata: { name: 'a/b', generateName: 'x%', labels: { 'a b': 'c' } } },
      }),
      [
        `spec.template.metadata.generateName: Invalid value: "x%": may not contain '%'`,
        `spec.template.metadata.name: Invalid value: "a/b": may not contain '/'`,
        'spec.template.metadata.labels: Invalid value: "a b": name part must consist of alphanumeric ' +
          "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. " +
          "'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
          "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    );
    assert.deepEqual(errorsOf({ template: { ...ok, metadata: { namespace: 'Bad.NS' } } }), [
      'spec.template.metadata.namespace: Invalid value: "Bad.NS": a lowercase RFC 1123 label must ' +
        "consist of lower case alphanumeric characters or '-', and must start and end with an " +
        "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is " +
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    assert.deepEqual(errorsOf({ template: { ...ok, metadata: 'x' } }), [
      'spec.template.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta',
    ]);
  });

  it('follows items and additionalProperties with kube field paths', () => {
    assert.deepEqual(errorsOf({ list: [ok, { apiVersion: 'v1' }], byName: { a: { kind: 'Pod' } } }), [
      'spec.list[1].kind: Required value: must not be empty',
      'spec.byName[a].apiVersion: Required value: must not be empty',
    ]);
  });

  it('walks into an embedded resource for those nested in it', () => {
    const nested: JSONSchemaProps = {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: { spec: { type: 'object', properties: { inner: embedded } } },
    };
    const validate = embeddedResourceValidator({ type: 'object', properties: { outer: nested } });
    assert.ok(validate !== undefined);
    const errs = validate({ outer: { ...ok, metadata: { name: '..' }, spec: { inner: { kind: 'X' } } } });
    assert.deepEqual(
      errs.map((e) => e.error()),
      [
        `outer.metadata.name: Invalid value: "..": may not be '..'`,
        'outer.spec.inner.apiVersion: Required value: must not be empty',
      ],
    );
  });
});
