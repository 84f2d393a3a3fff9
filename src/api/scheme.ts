// The registry of kinds and named schemas one server serves (kube's runtime.Scheme plus its
// OpenAPI definitions). A value: build one per server; nothing here is global.
import type { APIModule } from './schema/api-module.js';
import { metaV1 } from './schema/api-module.js';
import type { GoJSONShape } from './schema/go-json-shape.js';
import type { GoOmitEmptyTable } from './schema/go-omit-empty.js';
import type { ProtobufCodec, ProtobufMessage } from './schema/protobuf.js';
import type { Definitions, KindInfo, Schema } from './schema/types.js';

type GVK = { group: string; version: string; kind: string };

/** Splits `v1` or `apps/v1` into group and version, as schema.ParseGroupVersion. */
export function parseAPIVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return undefined;
}

export function apiVersionOf(gv: { group: string; version: string }): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

const kindKey = (group: string, version: string, kind: string): string => `${group}/${version}/${kind}`;

function compareGVK(a: GVK, b: GVK): number {
  if (a.group !== b.group) return a.group < b.group ? -1 : 1;
  if (a.version !== b.version) return a.version < b.version ? -1 : 1;
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;
}

export class Scheme {
  readonly #definitions = new Map<string, Schema>();
  readonly #kinds = new Map<string, KindInfo>();
  readonly #goTypes = new Map<string, Readonly<Record<string, string>>>();
  readonly #protobuf = new Map<string, ProtobufMessage | ProtobufCodec>();
  readonly #goJSON = new Map<string, GoJSONShape>();
  readonly #goOmitEmpty = new Map<string, GoOmitEmptyTable>();
  #stamped: Definitions | undefined;
  #sealed = false;

  /** Refuses every later registration: the scheme may then be shared. */
  seal(): this {
    this.#sealed = true;
    return this;
  }

  #assertOpen(): void {
    if (this.#sealed) throw new Error('the scheme is sealed: nothing more may be registered in it');
  }

  /** Adds a module's definitions, kinds and Go type names. A name registered twice must be the same schema. */
  register(module: APIModule): this {
    this.#assertOpen();
    for (const [name, schema] of Object.entries(module.definitions)) {
      const existing = this.#definitions.get(name);
      if (existing !== undefined && existing !== schema) {
        throw new Error(`definition ${name} is registered twice with different schemas`);
      }
      this.#definitions.set(name, schema);
    }
    for (const kind of module.kinds ?? []) this.addKind(kind);
    for (const [name, fields] of Object.entries(module.goTypes ?? {})) {
      this.#goTypes.set(name, { ...this.#goTypes.get(name), ...fields });
    }
    for (const [name, info] of Object.entries(module.protobuf ?? {})) {
      const existing = this.#protobuf.get(name);
      if (existing !== undefined && existing !== info) {
        throw new Error(`protobuf table of ${name} is registered twice with different contents`);
      }
      this.#protobuf.set(name, info);
    }
    for (const [name, shape] of Object.entries(module.goJSON ?? {})) {
      const existing = this.#goJSON.get(name);
      if (existing !== undefined && existing !== shape) {
        throw new Error(`Go JSON shape of ${name} is registered twice with different contents`);
      }
      this.#goJSON.set(name, shape);
    }
    for (const [name, table] of Object.entries(module.goOmitEmpty ?? {})) {
      const existing = this.#goOmitEmpty.get(name);
      if (existing !== undefined && existing !== table) {
        throw new Error(`omitempty table of ${name} is registered twice with different contents`);
      }
      this.#goOmitEmpty.set(name, table);
    }
    this.#stamped = undefined;
    return this;
  }

  addKind(kind: KindInfo): this {
    this.#assertOpen();
    if (!this.#definitions.has(kind.definition)) {
      throw new Error(`kind ${kind.kind} refers to unknown definition ${kind.definition}`);
    }
    this.#kinds.set(kindKey(kind.group, kind.version, kind.kind), Object.freeze({ ...kind }));
    this.#stamped = undefined;
    return this;
  }

  /** Registers the kinds every served group/version carries (metav1.AddToGroupVersion). */
  addMetaToGroupVersion(group: string, version: string): this {
    for (const kind of ['WatchEvent', 'DeleteOptions']) {
      this.addKind({ group, version, kind, definition: metaV1(kind) });
    }
    return this;
  }

  /** The kind registered for `apiVersion` (e.g. `v1`, `apps/v1`) and `kind`. */
  kindFor(apiVersion: string, kind: string): KindInfo | undefined {
    const gv = parseAPIVersion(apiVersion);
    return gv === undefined ? undefined : this.#kinds.get(kindKey(gv.group, gv.version, kind));
  }

  kinds(): readonly KindInfo[] {
    return [...this.#kinds.values()].sort(compareGVK);
  }

  /** The raw schema registered under `name` (without the group-version-kind extension). */
  definition(name: string): Schema | undefined {
    return this.#definitions.get(name);
  }

  /** All definitions, each kind's carrying `x-kubernetes-group-version-kind`, sorted by name. */
  definitions(): Definitions {
    if (this.#stamped !== undefined) return this.#stamped;
    const gvks = new Map<string, GVK[]>();
    for (const k of this.kinds()) {
      const list = gvks.get(k.definition) ?? [];
      list.push({ group: k.group, kind: k.kind, version: k.version });
      gvks.set(k.definition, list);
    }
    const out: Record<string, Schema> = {};
    for (const name of [...this.#definitions.keys()].sort()) {
      const schema = this.#definitions.get(name) as Schema;
      const list = gvks.get(name);
      out[name] = list === undefined ? schema : { ...schema, 'x-kubernetes-group-version-kind': list };
    }
    this.#stamped = Object.freeze(out);
    return this.#stamped;
  }

  /** Follows `$ref` until a schema without one; throws on a name that is not registered. */
  resolve(schema: Schema): Schema {
    let current = schema;
    for (let depth = 0; current.$ref !== undefined; depth++) {
      const target = this.#definitions.get(current.$ref);
      if (target === undefined) throw new Error(`unknown definition ${current.$ref}`);
      if (depth > 32) throw new Error(`reference cycle at ${current.$ref}`);
      current = target;
    }
    return current;
  }

  /** How `definition` travels as kube protobuf: its message table or codec; undefined when it has none. */
  protobuf(definition: string): ProtobufMessage | ProtobufCodec | undefined {
    return this.#protobuf.get(definition);
  }

  /** How Go writes `definition` where no protobuf table says (go-json-shape.ts); undefined otherwise. */
  goJSONShape(definition: string): GoJSONShape | undefined {
    return this.#goJSON.get(definition);
  }

  /** Which members of `definition` Go leaves out when empty (go-omit-empty.ts); undefined when not known. */
  goOmitEmpty(definition: string): GoOmitEmptyTable | undefined {
    return this.#goOmitEmpty.get(definition);
  }

  /** The Go type name of a field where it is a named type (`types.UID`), if registered. */
  goFieldType(definition: string, field: string): string | undefined {
    return this.#goTypes.get(definition)?.[field];
  }
}
