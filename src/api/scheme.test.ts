import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme, newBuiltinScheme } from './builtin-scheme.js';
import { parseAPIVersion, Scheme } from './scheme.js';
import type { Schema } from './schema/types.js';

/**
 * Calls `check` once for every definition a served kind reaches (discovery documents and Tables,
 * built in code, aside), and walks on into the definitions a checked one refers to when it says so.
 */
function eachReachedDefinition(s: Scheme, check: (name: string) => boolean): void {
  const builtInCode = new Set(['APIGroup', 'APIGroupList', 'APIResourceList', 'APIVersions', 'Table']);
  const seen = new Set<string>();
  const visit = (schema: Schema | undefined): void => {
    if (schema === undefined) return;
    if (schema.$ref !== undefined) walk(schema.$ref);
    visit(schema.items);
    if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties);
    for (const p of Object.values(schema.properties ?? {})) visit(p);
  };
  const walk = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    if (check(name)) visit(s.definition(name));
  };
  for (const k of s.kinds()) if (!builtInCode.has(k.kind)) walk(k.definition);
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

function refsOf(schema: Schema, out: string[] = []): string[] {
  if (schema.$ref !== undefined) out.push(schema.$ref);
  if (schema.items !== undefined) refsOf(schema.items, out);
  if (typeof schema.additionalProperties === 'object') refsOf(schema.additionalProperties, out);
  for (const p of Object.values(schema.properties ?? {})) refsOf(p, out);
  return out;
}

describe('Scheme', () => {
  const scheme = builtinScheme();

  it('is built once per process and sealed, so servers can share it', () => {
    assert.equal(builtinScheme(), scheme);
    assert.throws(() => scheme.register({ definitions: {} }), /sealed/);
    assert.throws(() => scheme.addMetaToGroupVersion('example.com', 'v1'), /sealed/);
    assert.equal(scheme.kindFor('example.com/v1', 'WatchEvent'), undefined);
  });

  it('finds kinds by apiVersion and kind', () => {
    assert.deepEqual(scheme.kindFor('v1', 'ConfigMap'), {
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
      definition: 'io.k8s.api.core.v1.ConfigMap',
    });
    assert.equal(scheme.kindFor('v1', 'SecretList')?.definition, 'io.k8s.api.core.v1.SecretList');
    assert.equal(scheme.kindFor('meta.k8s.io/v1', 'Table')?.definition, `${META}Table`);
    assert.equal(scheme.kindFor('apps/v1', 'ConfigMap'), undefined);
    assert.equal(scheme.kindFor('a/b/c', 'ConfigMap'), undefined);
  });

  it('parses apiVersion as kube does', () => {
    assert.deepEqual(parseAPIVersion('v1'), { group: '', version: 'v1' });
    assert.deepEqual(parseAPIVersion('apps/v1'), { group: 'apps', version: 'v1' });
    assert.equal(parseAPIVersion('a/b/c'), undefined);
  });

  it('stamps x-kubernetes-group-version-kind on kinds, sorted by group and version', () => {
    const defs = scheme.definitions();
    assert.deepEqual(defs['io.k8s.api.core.v1.ConfigMap']?.['x-kubernetes-group-version-kind'], [
      { group: '', kind: 'ConfigMap', version: 'v1' },
    ]);
    // Every built-in group version gets DeleteOptions, listed by group then version.
    const gvks = defs[`${META}DeleteOptions`]?.['x-kubernetes-group-version-kind'] ?? [];
    assert.deepEqual(gvks[0], { group: '', kind: 'DeleteOptions', version: 'v1' });
    assert.ok(gvks.some((g) => g.group === 'meta.k8s.io'));
    const order = gvks.map((g) => `${g.group}/${g.version}`);
    assert.deepEqual(order, [...order].sort());
    assert.equal(defs[`${META}ObjectMeta`]?.['x-kubernetes-group-version-kind'], undefined);
    assert.deepEqual(Object.keys(defs), Object.keys(defs).sort());
  });

  it('adds meta kinds to a new group/version', () => {
    const before =
      builtinScheme().definitions()[`${META}WatchEvent`]?.['x-kubernetes-group-version-kind'] ?? [];
    const s = newBuiltinScheme().addMetaToGroupVersion('example.io', 'v1');
    assert.equal(s.kindFor('example.io/v1', 'WatchEvent')?.definition, `${META}WatchEvent`);
    assert.equal(
      s.definitions()[`${META}WatchEvent`]?.['x-kubernetes-group-version-kind']?.length,
      before.length + 1,
    );
  });

  it('resolves every reference of every definition', () => {
    for (const [name, schema] of Object.entries(scheme.definitions())) {
      for (const ref of refsOf(schema)) {
        assert.ok(scheme.definition(ref) !== undefined, `${name} refers to missing ${ref}`);
      }
    }
    const resolved = scheme.resolve({ $ref: `${META}Time` });
    assert.deepEqual([resolved.type, resolved.format], ['string', 'date-time']);
    assert.throws(
      () => scheme.resolve({ $ref: 'io.example.Missing' }),
      /unknown definition io\.example\.Missing/,
    );
  });

  it('uses kube formats and extensions', () => {
    const meta = scheme.definition(`${META}ObjectMeta`)?.properties ?? {};
    assert.equal(meta['generation']?.format, 'int64');
    assert.equal(meta['creationTimestamp']?.$ref, `${META}Time`);
    const owners = meta['ownerReferences'] ?? {};
    assert.equal(owners['x-kubernetes-patch-merge-key'], 'uid');
    assert.equal(owners['x-kubernetes-patch-strategy'], 'merge');
    assert.deepEqual(owners['x-kubernetes-list-map-keys'], ['uid']);
    assert.equal(meta['finalizers']?.['x-kubernetes-list-type'], 'set');
    assert.equal(scheme.definition(`${META}Status`)?.properties?.['code']?.format, 'int32');
    assert.equal(
      scheme.definition('io.k8s.apimachinery.pkg.util.intstr.IntOrString')?.['x-kubernetes-int-or-string'],
      true,
    );
    assert.equal(scheme.definition('io.k8s.apimachinery.pkg.api.resource.Quantity')?.type, 'string');
    assert.equal(scheme.definition(`${META}OwnerReference`)?.['x-kubernetes-map-type'], 'atomic');
    assert.equal(
      scheme.definition('io.k8s.api.core.v1.ConfigMap')?.properties?.['binaryData']
        ?.additionalProperties instanceof Object,
      true,
    );
  });

  it('registers a new kind from one module', () => {
    const s = newBuiltinScheme().register({
      definitions: {
        'io.example.v1.Widget': {
          type: 'object',
          properties: { size: { type: 'integer', format: 'int32' } },
        },
      },
      kinds: [{ group: 'example.io', version: 'v1', kind: 'Widget', definition: 'io.example.v1.Widget' }],
      goTypes: { 'io.example.v1.Widget': { size: 'v1.Size' } },
    });
    assert.equal(s.kindFor('example.io/v1', 'Widget')?.definition, 'io.example.v1.Widget');
    assert.equal(s.goFieldType('io.example.v1.Widget', 'size'), 'v1.Size');
  });

  it('refuses conflicting definitions and kinds without a definition', () => {
    const s = new Scheme().register({ definitions: { a: { type: 'string' } } });
    assert.throws(() => s.register({ definitions: { a: { type: 'integer' } } }), /registered twice/);
    assert.throws(
      () => s.addKind({ group: '', version: 'v1', kind: 'B', definition: 'b' }),
      /unknown definition b/,
    );
  });

  it('keeps protobuf tables out of the definitions and refuses conflicting ones', () => {
    const s = builtinScheme();
    assert.deepEqual(s.protobuf(`${META}Preconditions`), {
      uid: { field: 1, pointer: true },
      resourceVersion: { field: 2, pointer: true },
    });
    assert.equal(s.protobuf(`${META}Time`), 'time');
    assert.equal(s.protobuf(`${META}Table`), undefined);
    assert.ok(!JSON.stringify(s.definitions()).includes('pointer'));
    const t = new Scheme().register({ definitions: {}, protobuf: { x: { a: 1 } } });
    assert.throws(
      () => t.register({ definitions: {}, protobuf: { x: { a: 2 } } }),
      /protobuf table of x is registered twice/,
    );
  });

  it('knows the Go member order of every definition a served kind reaches: a protobuf table or a Go JSON shape', () => {
    const s = builtinScheme();
    const missing: string[] = [];
    eachReachedDefinition(s, (name) => {
      const table = s.protobuf(name);
      const shape = s.goJSONShape(name);
      if (table === undefined && shape === undefined) missing.push(name);
      // A shape names every member of its schema but TypeMeta, and no other.
      if (typeof shape === 'object' && 'fields' in shape) {
        const properties = s.definition(name)?.properties ?? {};
        const typeMeta = 'kind' in properties && 'apiVersion' in properties;
        const props = Object.keys(properties).filter(
          (p) => !typeMeta || (p !== 'kind' && p !== 'apiVersion'),
        );
        assert.deepEqual([...shape.fields].sort(), props.sort(), name);
      }
      return typeof table !== 'string' && shape !== 'unstructured';
    });
    assert.deepEqual(missing, []);
  });

  it('knows which members Go leaves out when empty for every struct a served kind reaches', () => {
    const s = builtinScheme();
    const missing: string[] = [];
    eachReachedDefinition(s, (name) => {
      const table = s.protobuf(name);
      const shape = s.goJSONShape(name);
      // Codec types (Time, Quantity, IntOrString, …) and Go-JSON types other than structs are not structs to omit from.
      const struct =
        (table !== undefined && typeof table !== 'string') ||
        (typeof shape === 'object' && 'fields' in shape);
      if (!struct) return false;
      const omit = s.goOmitEmpty(name);
      if (omit === undefined) missing.push(name);
      const properties = s.definition(name)?.properties ?? {};
      for (const [member, how] of Object.entries(omit ?? {})) {
        assert.ok(member in properties, `${name}.${member} is not a member`);
        // A Go pointer keeps a zero value it points to: a protobuf table's pointer is 'nil' here.
        const field = typeof table === 'object' ? table[member] : undefined;
        if (typeof field === 'object' && field.pointer === true)
          assert.equal(how, 'nil', `${name}.${member}`);
      }
      return true;
    });
    assert.deepEqual(missing, []);
  });

  it('gives every struct member Go holds by value its default {}, so that a null or absent one decodes to the zero struct', () => {
    // Struct members held by a pointer without omitempty (k8s.io/api 1.33 types.go): written as
    // null when nil, so no default. Every other struct member without omitempty is held by value.
    const pointers = new Set([
      'io.k8s.api.apps.v1.DaemonSetSpec.selector',
      'io.k8s.api.apps.v1.DeploymentSpec.selector',
      'io.k8s.api.apps.v1.ReplicaSetSpec.selector',
      'io.k8s.api.apps.v1.StatefulSetSpec.selector',
      'io.k8s.api.authentication.v1.TokenRequestSpec.boundObjectRef',
      'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.secretRef',
      'io.k8s.api.core.v1.ScaleIOVolumeSource.secretRef',
    ]);
    const s = builtinScheme();
    const missing: string[] = [];
    eachReachedDefinition(s, (name) => {
      const omit = s.goOmitEmpty(name) ?? {};
      for (const [member, schema] of Object.entries(s.definition(name)?.properties ?? {})) {
        const ref = schema.$ref;
        if (ref === undefined || omit[member] !== undefined || s.definition(ref)?.properties === undefined)
          continue;
        const isEmptyDefault =
          typeof schema.default === 'object' &&
          schema.default !== null &&
          Object.keys(schema.default).length === 0;
        if (!isEmptyDefault && !pointers.has(`${name}.${member}`)) missing.push(`${name}.${member}`);
      }
      return true;
    });
    assert.deepEqual(missing, []);
  });

  it('refuses conflicting Go JSON shapes', () => {
    const t = new Scheme().register({ definitions: {}, goJSON: { x: { fields: ['a'] } } });
    assert.deepEqual(t.goJSONShape('x'), { fields: ['a'] });
    assert.throws(
      () => t.register({ definitions: {}, goJSON: { x: { fields: ['b'] } } }),
      /Go JSON shape of x is registered twice/,
    );
  });

  it('builds independent schemes', () => {
    const a = newBuiltinScheme().addMetaToGroupVersion('example.io', 'v1');
    assert.equal(builtinScheme().kindFor('example.io/v1', 'WatchEvent'), undefined);
    assert.notEqual(a.kindFor('example.io/v1', 'WatchEvent'), undefined);
  });
});
