// The plan of Go's member order for a built-in object (go-member-order.ts applies it): per struct
// definition, its members in Go order (from the protobuf table beside its schema, which lists
// fields in Go order, or its Go JSON shape), how each member's value is put in order, which members
// Go's omitempty drops when empty (go-omit-empty.ts), and what Go writes for each member holding its
// zero value (go-zero-members.ts). Compiled per definition, once, when first needed, kept per scheme.
import type { Scheme } from '../../api/scheme.js';
import type { GoOmitEmpty, GoOmitEmptyTable } from '../../api/schema/go-omit-empty.js';
import { isProtobufCodec, type ProtobufField } from '../../api/schema/protobuf.js';
import type { Schema } from '../../api/schema/types.js';
import { goZeroMember } from './go-zero-members.js';
import { KindPlans } from './kind-plans.js';

/**
 * How a member's value is put in order: a struct, a list, a map (keys sorted), a struct or a list of
 * it (a type with its own MarshalJSON), or any JSON kept as Go's interface{} (keys sorted throughout).
 */
export type ValueOrder =
  | { readonly kind: 'struct'; readonly target: StructRef }
  | { readonly kind: 'list'; readonly item: ValueOrder }
  | { readonly kind: 'map'; readonly value: ValueOrder | undefined }
  | { readonly kind: 'structOrList'; readonly struct: ValueOrder & { kind: 'struct' } }
  | { readonly kind: 'unstructured' };

/**
 * What is written for a member holding its zero value: null (a zero time), a struct's zero value,
 * or a JSON value (go-zero-members.ts; `missing`: also for a member the object lacks).
 */
export type ZeroMember =
  | { readonly kind: 'time' }
  | { readonly kind: 'struct'; readonly target: StructRef }
  | { readonly kind: 'value'; readonly value: unknown; readonly missing: boolean };

/** A member as Go declares it: its JSON name, or an embedded struct's definition; opaque when its value has a codec. */
type Member = { readonly json: string; readonly inline?: string; readonly opaque: boolean };

/** A struct's members in Go order, and how each one's value is put in order (by position). */
export interface StructPlan {
  readonly names: readonly string[];
  /** JSON name → position; a prototype-less record (faster to probe than a Map for member names). */
  readonly position: Readonly<Record<string, number | undefined>>;
  readonly values: readonly (ValueOrder | undefined)[];
  /** How each member is dropped when empty (by position); undefined for one always written. */
  readonly omit: readonly (GoOmitEmpty | undefined)[];
  /**
   * What Go writes for each member holding its zero value (by position; undefined for one it leaves
   * out), and the positions of those written even when the object lacks them (times, structs, nil
   * lists, maps and pointers, and scalars without omitempty, optional or required).
   */
  readonly zero: readonly (ZeroMember | undefined)[];
  readonly zeroAt: readonly number[];
  /** Whether a position is in zeroAt, for the count every visit makes of those an object holds. */
  readonly written: readonly boolean[];
}

/** The plan being compiled: members in Go order, each one's value order, omitempty class and zero. */
interface PlanParts {
  readonly names: string[];
  readonly values: (ValueOrder | undefined)[];
  readonly omit: (GoOmitEmpty | undefined)[];
  readonly zero: (ZeroMember | undefined)[];
}

/** A definition's plan, compiled on first use (definitions refer to each other, and to themselves). */
export class StructRef {
  readonly #compiler: PlanCompiler;
  readonly #definition: string;
  #plan: StructPlan | null = null;
  #compiled = false;

  constructor(compiler: PlanCompiler, definition: string) {
    this.#compiler = compiler;
    this.#definition = definition;
  }

  get plan(): StructPlan | null {
    if (!this.#compiled) {
      this.#plan = this.#compiler.compile(this.#definition);
      this.#compiled = true;
    }
    return this.#plan;
  }
}

class PlanCompiler {
  readonly #scheme: Scheme;
  readonly #refs = new Map<string, StructRef>();
  readonly #kinds: KindPlans<StructRef>;

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
    this.#kinds = new KindPlans(scheme, (definition) => this.ref(definition));
  }

  /** A definition's plan to compile when first needed (null then for one without a message table). */
  ref(definition: string): StructRef {
    let ref = this.#refs.get(definition);
    if (ref === undefined) {
      ref = new StructRef(this, definition);
      this.#refs.set(definition, ref);
    }
    return ref;
  }

  /** The plan of a kind's definition; null for a kind the scheme does not know. */
  kind(apiVersion: string, kind: string): StructRef | null {
    return this.#kinds.get(apiVersion, kind);
  }

  compile(definition: string): StructPlan | null {
    const members = this.#struct(definition);
    if (members === undefined) return null;
    const parts: PlanParts = { names: [], values: [], omit: [], zero: [] };
    const properties = this.#scheme.definition(definition)?.properties ?? {};
    // TypeMeta, embedded first in every Go struct that has it, travels outside the message.
    if ('kind' in properties && 'apiVersion' in properties && !members.some((m) => m.json === 'kind')) {
      parts.names.push('kind', 'apiVersion');
      parts.values.push(undefined, undefined);
      parts.omit.push(undefined, undefined);
      parts.zero.push(undefined, undefined);
    }
    this.#members(definition, parts, { depth: 0, omit: this.#scheme.goOmitEmpty(definition) });
    const position: Record<string, number | undefined> = Object.create(null) as Record<string, number>;
    parts.names.forEach((name, i) => (position[name] = i));
    const zeroAt = parts.zero.flatMap((z, i) =>
      z === undefined || (z.kind === 'value' && !z.missing) ? [] : [i],
    );
    const written = parts.names.map(() => false);
    for (const at of zeroAt) written[at] = true;
    const { names, values, omit, zero } = parts;
    return { names, values, omit, position, zero, zeroAt, written };
  }

  /** A struct's members in Go order: from its protobuf table, or its Go JSON shape; undefined for anything else. */
  #struct(definition: string): readonly Member[] | undefined {
    const table = this.#scheme.protobuf(definition);
    if (table !== undefined) {
      if (isProtobufCodec(table)) return undefined;
      return Object.entries(table).map(([json, entry]): Member => {
        const spec: ProtobufField = typeof entry === 'number' ? { field: entry } : entry;
        return spec.inline === undefined
          ? { json, opaque: spec.codec !== undefined }
          : { json, inline: spec.inline, opaque: true };
      });
    }
    const shape = this.#scheme.goJSONShape(definition);
    if (shape === undefined || typeof shape !== 'object' || !('fields' in shape)) return undefined;
    return shape.fields.map((json) => ({ json, opaque: false }));
  }

  /**
   * Appends a definition's members; an embedded struct's members go where it is embedded. `omit` is
   * the outer struct's omitempty table (which names its embedded structs' members too).
   */
  #members(
    definition: string,
    into: PlanParts,
    at: { readonly depth: number; readonly omit: GoOmitEmptyTable | undefined },
  ): void {
    const members = this.#struct(definition);
    if (members === undefined || at.depth > 8) return;
    const properties = this.#scheme.definition(definition)?.properties ?? {};
    const own = this.#scheme.goOmitEmpty(definition);
    for (const { json, inline, opaque } of members) {
      if (inline !== undefined) {
        this.#members(inline, into, { depth: at.depth + 1, omit: at.omit });
        continue;
      }
      if (into.names.includes(json)) continue;
      into.names.push(json);
      const property = properties[json];
      into.values.push(opaque || property === undefined ? undefined : this.#valueOrder(property));
      const omit = at.omit?.[json] ?? own?.[json];
      into.omit.push(omit);
      const zero =
        property === undefined
          ? undefined
          : goZeroMember(this.#scheme, property, { definition, name: json, omit });
      into.zero.push(
        zero?.kind === 'struct'
          ? { kind: 'struct', target: this.ref(zero.definition) }
          : zero?.kind === 'value'
            ? { kind: 'value', value: zero.value, missing: zero.missing }
            : zero,
      );
    }
  }

  #valueOrder(schema: Schema): ValueOrder | undefined {
    if (schema.$ref !== undefined) {
      const shape = this.#scheme.goJSONShape(schema.$ref);
      if (shape === 'unstructured') return { kind: 'unstructured' };
      if (shape !== undefined && 'structOrList' in shape) {
        return { kind: 'structOrList', struct: { kind: 'struct', target: this.ref(shape.structOrList) } };
      }
      return this.#struct(schema.$ref) === undefined
        ? undefined
        : { kind: 'struct', target: this.ref(schema.$ref) };
    }
    if (schema.type === 'array' && schema.items !== undefined) {
      const item = this.#valueOrder(schema.items);
      return item === undefined ? undefined : { kind: 'list', item };
    }
    if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
      return { kind: 'map', value: this.#valueOrder(schema.additionalProperties) };
    }
    return undefined;
  }
}

// The compiled plans of each scheme, kept as long as the scheme is.
const compilers = new WeakMap<Scheme, PlanCompiler>();

export function compilerOf(scheme: Scheme): PlanCompiler {
  let compiler = compilers.get(scheme);
  if (compiler === undefined) {
    compiler = new PlanCompiler(scheme);
    compilers.set(scheme, compiler);
  }
  return compiler;
}
