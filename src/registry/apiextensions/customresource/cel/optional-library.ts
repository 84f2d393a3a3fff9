// cel-go's optional types (cel.OptionalTypes, in kube 1.33's environment since 1.28): optional
// values, `optional.of`, `optional.ofNonZeroValue`, `optional.none`, `hasValue`, `value`, `or`,
// `orValue`, the list functions `first`, `last`, `optional.unwrap` and `unwrapOpt`, and the
// accesses the optional syntax stands for (optional-syntax.ts). @bufbuild/cel takes object values
// as protobuf messages only, so an optional is a message `optional_type` (cel-go's type name) that
// says whether it holds a value; the value itself is kept beside the message. `==` compares
// messages by their fields, so the message also holds a text that is equal exactly when the
// values are equal (numbers compare across int, uint and double as CEL's equality does).
import type * as Cel from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import { entriesOf, keyText, mapKeyOf } from './map-keys.js';
import { messageType, type CelModules } from './message-types.js';
import { optChainIndex, optChainSelect, optIndex, optMapEntries, optSelect } from './optional-syntax.js';

export type OptionalDesc = Protobuf.DescMessage;

function optionalDesc(m: CelModules): OptionalDesc {
  return messageType(m, '', [
    'optional_type',
    [
      ['has_value', 'bool'],
      ['identity', 'string'],
    ],
  ]);
}

type Reflected = { readonly desc: Protobuf.DescMessage; readonly message: Protobuf.Message };
const isReflected = (v: unknown): v is Reflected =>
  typeof v === 'object' && v !== null && 'desc' in v && 'message' in v && !(v instanceof Uint8Array);

/** The optional library: its functions, its message type, and optional values for bindings. */
export interface OptionalLibrary {
  readonly funcs: Cel.CelFunc[];
  readonly desc: OptionalDesc;
  readonly of: (v: Cel.CelInput) => Cel.CelInput;
  readonly none: () => Cel.CelInput;
}

export function optionalLibrary(m: CelModules): OptionalLibrary {
  const { cel, protobuf } = m;
  const desc = optionalDesc(m);
  const Opt = cel.objectType(desc);
  const { STRING, BOOL, DYN } = cel.CelScalar;
  const list = cel.listType(DYN);
  const held = new WeakMap<object, Cel.CelValue>();

  /** A text equal for two values exactly when CEL's `==` holds between them. */
  const identity = (v: unknown): string => {
    if (typeof v === 'bigint') return `n${v}`;
    if (typeof v === 'number') return Number.isInteger(v) ? `n${BigInt(v)}` : `d${v}`;
    if (typeof v === 'string') return `s${JSON.stringify(v)}`;
    if (typeof v === 'boolean') return v ? 'T' : 'F';
    if (v === null) return 'z';
    if (v instanceof Uint8Array) return `y${Buffer.from(v).toString('base64')}`;
    if (cel.isCelUint(v)) return `n${v.value}`;
    if (cel.isCelList(v) || Array.isArray(v))
      return `[${[...(v as Iterable<unknown>)].map(identity).join(',')}]`;
    if (cel.isCelMap(v) || v instanceof Map)
      return `{${[...v]
        .map(([k, x]: [unknown, unknown]) => `${identity(k)}:${identity(x)}`)
        .sort()
        .join(',')}}`;
    if (cel.isCelType(v)) return `t${(v as { name?: string }).name ?? ''}`;
    if (isReflected(v)) {
      const inner = held.get(v.message);
      if (v.desc === desc) return `o${inner === undefined ? '' : identity(inner)}`;
      return `m${v.desc.typeName}:${Buffer.from(protobuf.toBinary(v.desc, v.message)).toString('base64')}`;
    }
    // A library's value not yet wrapped for CEL (a NamedFormat from format.named()).
    if (typeof v === 'object' && '$typeName' in v)
      return `m${JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? String(x) : x))}`;
    throw new Error(`no such overload`);
  };
  const of = (v: Cel.CelValue): Protobuf.Message => {
    const msg = protobuf.create(desc, { hasValue: true });
    held.set(msg, v);
    // The identity is read only by `==` (a walk of the whole value): worked out when first read.
    let text: string | undefined;
    Object.defineProperty(msg, 'identity', { enumerable: true, get: () => (text ??= identity(v)) });
    return msg;
  };
  const noneMessage = protobuf.create(desc, { hasValue: false, identity: '' });
  const none = (): Protobuf.Message => noneMessage;
  const valueOf = (o: Cel.CelValue<typeof Opt>): Cel.CelValue | undefined => held.get(o.message);

  const isZero = (v: Cel.CelValue): boolean => {
    if (v === null || v === false || v === '' || v === 0 || v === 0n) return true;
    if (v instanceof Uint8Array) return v.length === 0;
    if (cel.isCelUint(v)) return v.value === 0n;
    if (cel.isCelList(v)) return v.size === 0;
    if (cel.isCelMap(v)) return v.size === 0;
    if (isReflected(v)) return protobuf.toBinary(v.desc, v.message).length === 0;
    return false;
  };
  const integerIndex = (i: Cel.CelValue): number | undefined => {
    const n = typeof i === 'bigint' ? Number(i) : cel.isCelUint(i) ? Number(i.value) : i;
    return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
  };
  /** A member or an element of `on`: undefined when absent; throws where `on` has none to give. */
  const member = (on: Cel.CelValue, key: Cel.CelValue): Cel.CelValue | undefined => {
    // A binding's value (an optional oldSelf) is held as the CEL input it was: a Map or an array.
    if (on instanceof Map) on = cel.celMap(on as ReadonlyMap<string, Cel.CelInput>);
    else if (Array.isArray(on)) on = cel.celList(on as Cel.CelInput[]);
    if (cel.isCelMap(on)) {
      const k = mapKeyOf(cel, key);
      return on.has(k) ? on.get(k) : undefined;
    }
    if (cel.isCelList(on)) {
      const at = integerIndex(key);
      if (at === undefined) throw new Error('unsupported index type');
      return at >= 0 && at < on.size ? on.get(at) : undefined;
    }
    throw new Error(`no such overload`);
  };
  const optionalMember = (on: Cel.CelValue, key: Cel.CelValue): Protobuf.Message => {
    const found = member(on, key);
    return found === undefined ? none() : of(found);
  };
  /** A member of the value an optional holds, as a plain access takes it (absent: an error). */
  const chained = (
    o: Cel.CelValue<typeof Opt>,
    key: Cel.CelValue,
    what: 'key' | 'index',
  ): Protobuf.Message => {
    const inner = valueOf(o);
    if (inner === undefined) return none();
    const found = member(inner, key);
    if (found !== undefined) return of(found);
    if (what === 'key') throw new Error(`no such key: ${keyText(cel, key)}`);
    throw new Error(`index out of bounds: ${keyText(cel, key)}`);
  };
  const unwrap = (l: Cel.CelList): Cel.CelList =>
    cel.celList(
      [...l].flatMap((x) => {
        if (!isReflected(x) || x.desc !== desc) throw new Error('no such overload');
        const inner = held.get(x.message);
        return inner === undefined ? [] : [inner];
      }),
    );

  /** A map literal's entries whose values are present added to the map of its others. */
  const addPresent = (base: Cel.CelMap, keys: Cel.CelList, values: Cel.CelList): Cel.CelMap => {
    const out = entriesOf(base);
    [...values].forEach((v, i) => {
      if (!isReflected(v) || v.desc !== desc) throw new Error('no such overload');
      const inner = held.get(v.message);
      if (inner === undefined) return;
      const key = mapKeyOf(cel, keys.get(i) ?? null);
      if (out.has(key)) throw new Error(`map key conflict: ${keyText(cel, key)}`);
      out.set(key, inner);
    });
    return cel.celMap(out);
  };

  return {
    desc,
    // A binding's value (oldSelf): a CEL input, which the planner converts where it is used.
    of: (v) => of(v as Cel.CelValue),
    none: () => noneMessage,
    funcs: [
      cel.celFunc(optSelect, [DYN, STRING], Opt, (on, field) =>
        isReflected(on) && on.desc === desc ? chainedOptional(on, field) : optionalMember(on, field),
      ),
      cel.celFunc(optIndex, [DYN, DYN], Opt, (on, key) =>
        isReflected(on) && on.desc === desc ? chainedOptional(on, key) : optionalMember(on, key),
      ),
      cel.celFunc(optChainSelect, [Opt, STRING], Opt, (o, field) => chained(o, field, 'key')),
      cel.celFunc(optChainIndex, [Opt, DYN], Opt, (o, key) => chained(o, key, 'index')),
      cel.celFunc(optMapEntries, [cel.mapType(DYN, DYN), list, list], cel.mapType(DYN, DYN), addPresent),
      cel.celFunc('optional.of', [DYN], Opt, (v) => of(v)),
      cel.celFunc('optional.ofNonZeroValue', [DYN], Opt, (v) => (isZero(v) ? none() : of(v))),
      cel.celFunc('optional.none', [], Opt, () => none()),
      cel.celFunc('optional.unwrap', [list], list, unwrap),
      cel.celMethod('unwrapOpt', list, [], list, function () {
        return unwrap(this);
      }),
      cel.celMethod('hasValue', Opt, [], BOOL, function () {
        return valueOf(this) !== undefined;
      }),
      cel.celMethod('value', Opt, [], DYN, function () {
        const v = valueOf(this);
        if (v === undefined) throw new Error('optional.none() dereference');
        return v;
      }),
      cel.celMethod('or', Opt, [Opt], Opt, function (other) {
        return valueOf(this) === undefined ? other.message : this.message;
      }),
      cel.celMethod('orValue', Opt, [DYN], DYN, function (other) {
        return valueOf(this) ?? other;
      }),
      cel.celMethod('first', list, [], Opt, function () {
        const v = this.get(0);
        return v === undefined ? none() : of(v);
      }),
      cel.celMethod('last', list, [], Opt, function () {
        const v = this.get(this.size - 1);
        return v === undefined ? none() : of(v);
      }),
    ],
  };

  /** `a.?b` or `a[?i]` where `a` is itself optional: none stays none. */
  function chainedOptional(o: Cel.CelValue<typeof Opt>, key: Cel.CelValue): Protobuf.Message {
    const inner = valueOf(o);
    return inner === undefined ? none() : optionalMember(inner, key);
  }
}
