// Compiles a definition of the Scheme into a node graph with check closures, once per kind.
// Go type names come from the definition names (`io.k8s.api.core.v1.ConfigMap` → `v1.ConfigMap`)
// unless the API module registered a named type for the field (`types.UID`).
import type { Scheme } from '../../api/scheme.js';
import { goOmits } from '../../api/schema/go-omit-empty.js';
import type { Schema } from '../../api/schema/types.js';
import { goZeroMember } from '../json/go-zero-members.js';
import {
  anyCheck,
  boolCheck,
  bytesCheck,
  floatCheck,
  intCheck,
  intOrStringCheck,
  quantityCheck,
  stringCheck,
  timeCheck,
} from './leaf-checks.js';
import type { Check, Node } from './node.js';
import { listCheck, mapCheck, structCheck } from './walk.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const customChecks: Readonly<Record<string, () => Node>> = {
  [`${META}Time`]: () => leaf('v1.Time', timeCheck(false)),
  [`${META}MicroTime`]: () => leaf('v1.MicroTime', timeCheck(true)),
  [`${META}FieldsV1`]: () => ({ kind: 'raw', goType: 'v1.FieldsV1', check: anyCheck }),
  ['io.k8s.apimachinery.pkg.runtime.RawExtension']: () => ({
    kind: 'raw',
    goType: 'runtime.RawExtension',
    check: anyCheck,
  }),
  ['io.k8s.apimachinery.pkg.util.intstr.IntOrString']: () => ({
    ...leaf('intstr.IntOrString', intOrStringCheck),
    readsNumberText: true,
  }),
  // A null map value is Quantity.UnmarshalJSON("null"): the zero Quantity, which Go writes as "0".
  ['io.k8s.apimachinery.pkg.api.resource.Quantity']: () => ({
    ...leaf('resource.Quantity', quantityCheck, '0'),
    readsNumberText: true,
  }),
};

function leaf(goType: string, check: Check, zero?: unknown): Node {
  return zero === undefined ? { kind: 'leaf', goType, check } : { kind: 'leaf', goType, check, zero };
}

/** `io.k8s.api.core.v1.ConfigMap` → `v1.ConfigMap`. */
export function goTypeOfDefinition(name: string): string {
  const parts = name.split('.');
  return parts.length < 2 ? name : `${parts[parts.length - 2] ?? ''}.${parts[parts.length - 1] ?? ''}`;
}

const stripPrefix = (goType: string | undefined, prefix: string): string | undefined =>
  goType?.startsWith(prefix) === true ? goType.slice(prefix.length) : undefined;

export class Compiler {
  readonly #scheme: Scheme;
  readonly #byDefinition = new Map<string, Node>();

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
  }

  /** The node of a named definition, compiled once. */
  definition(name: string): Node {
    const cached = this.#byDefinition.get(name);
    if (cached !== undefined) return cached;
    const custom = customChecks[name];
    if (custom !== undefined) {
      const node = custom();
      this.#byDefinition.set(name, node);
      return node;
    }
    const schema = this.#scheme.definition(name);
    if (schema === undefined) throw new Error(`unknown definition ${name}`);
    if (schema.properties === undefined) {
      const node = this.#compile(schema, goTypeOfDefinition(name));
      this.#byDefinition.set(name, node);
      return node;
    }
    return this.#struct(name, schema);
  }

  #struct(name: string, schema: Schema): Node {
    const fields: Record<string, Node> = Object.create(null) as Record<string, Node>;
    const defaults: (readonly [string, unknown])[] = [];
    const zeros: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    const omitEmpty = this.#scheme.goOmitEmpty(name);
    const node: Node = {
      kind: 'struct',
      goType: goTypeOfDefinition(name),
      structName: name.slice(name.lastIndexOf('.') + 1),
      fields,
      defaults,
      omitEmpty,
      zeros,
      preserveUnknown: schema['x-kubernetes-preserve-unknown-fields'] === true,
      check: anyCheck,
    };
    // Registered before the fields compile, so recursive types end in this node.
    this.#byDefinition.set(name, node);
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
      fields[field] = this.#compile(fieldSchema, this.#scheme.goFieldType(name, field));
      const zero = goZeroMember(this.#scheme, fieldSchema, {
        definition: name,
        name: field,
        omit: omitEmpty?.[field],
      });
      // A zero that Go writes though it is absent in memory (an optional scalar's ""), as stored
      // bytes are read back: never kept, nor filled in as a default.
      const absent = zero?.kind === 'value' && zero.absent && zero.value !== null;
      if (absent) zeros[field] = zero.value;
      // Nor a default that is the Go zero of an omitempty scalar (a LocalObjectReference's
      // `name: ""`): decoding drops it when sent, so a default must not put it back.
      const omit = omitEmpty?.[field];
      const omitted = omit !== undefined && omit !== 'empty' && goOmits(omit, fieldSchema.default);
      if (fieldSchema.default !== undefined && !omitted && !(absent && fieldSchema.default === zero.value))
        defaults.push([field, fieldSchema.default]);
    }
    node.check = structCheck(node);
    return node;
  }

  #compile(schema: Schema, goType: string | undefined): Node {
    if (schema.$ref !== undefined) {
      const target = this.definition(schema.$ref);
      return goType === undefined || goType === target.goType ? target : { ...target, goType };
    }
    if (goType === 'interface {}') return { kind: 'any', goType, check: anyCheck };
    switch (schema.type) {
      case 'array': {
        const elem = this.#compile(schema.items ?? {}, stripPrefix(goType, '[]'));
        const node: Node = { kind: 'list', goType: goType ?? `[]${elem.goType}`, elem, check: anyCheck };
        node.check = listCheck(node);
        return node;
      }
      case 'object':
        return this.#object(schema, goType);
      case 'string':
        if (schema.format === 'byte') return leaf(goType ?? '[]uint8', bytesCheck(goType ?? '[]uint8'));
        if (schema['x-kubernetes-int-or-string'] === true)
          return leaf('intstr.IntOrString', intOrStringCheck);
        return leaf(goType ?? 'string', stringCheck(goType ?? 'string'), '');
      case 'integer': {
        const bits = schema.format === 'int32' ? 'int32' : schema.format === 'int64' ? 'int64' : 'int';
        return { ...leaf(goType ?? bits, intCheck(goType ?? bits, bits), 0), readsNumberText: true };
      }
      case 'number':
        return leaf(goType ?? 'float64', floatCheck(goType ?? 'float64'), 0);
      case 'boolean':
        return leaf(goType ?? 'bool', boolCheck(goType ?? 'bool'), false);
      case undefined:
        break;
    }
    return { kind: 'any', goType: goType ?? 'interface {}', check: anyCheck };
  }

  #object(schema: Schema, goType: string | undefined): Node {
    const values = schema.additionalProperties;
    if (typeof values === 'object') {
      const elem = this.#compile(values, stripPrefix(goType, 'map[string]'));
      const node: Node = {
        kind: 'map',
        goType: goType ?? `map[string]${elem.goType}`,
        elem,
        check: anyCheck,
      };
      node.check = mapCheck(node);
      return node;
    }
    if (schema.properties !== undefined) {
      throw new Error('inline struct schemas are not supported; name the struct as a definition');
    }
    return { kind: 'any', goType: goType ?? 'map[string]interface {}', check: anyCheck };
  }
}
