// The types the cost estimator gives expressions (cost.ts), as far as costs depend on them: which
// overloads of a function apply (cel-go picks the estimate of each), whether a select reads a field
// of an object or a map, the sizes scalars have. Schema values are typed by their declared types
// (decl-type.ts), kube's library objects by name.
import { fixed, type Estimate } from './cost-estimate.js';
import { constantKind } from './scalar-operators.js';
import type { DeclType } from './decl-type.js';
import type { CelModule } from './load.js';
import { optChainIndex, optIndex, optMapEntries } from './optional-syntax.js';

export type Expr = ReturnType<CelModule['parse']>['expr'];

export type ScalarKind =
  | 'bool'
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'null'
  | 'duration'
  | 'timestamp'
  | 'type'
  | 'dyn';

/** The CEL type of an expression, as far as costs depend on it. */
export type CelType =
  | { readonly k: ScalarKind }
  | { readonly k: 'list'; readonly elem: CelType }
  | { readonly k: 'map'; readonly key: CelType; readonly value: CelType }
  /** A schema object (with its fields) or one of kube's library objects (Quantity, URL…). */
  | { readonly k: 'struct'; readonly name: string; readonly decl?: DeclType }
  /** IP, CIDR, optional. */
  | { readonly k: 'opaque'; readonly name: string; readonly param?: CelType };

export const scalar = (k: ScalarKind): CelType => ({ k });
export const dyn = scalar('dyn');
export const listOf = (elem: CelType): CelType => ({ k: 'list', elem });
const libStruct = (name: string): CelType => ({ k: 'struct', name });
const libOpaque = (name: string): CelType => ({ k: 'opaque', name });
/** cel-go's optional_type(T). */
export const optionalOf = (param: CelType): CelType => ({ k: 'opaque', name: 'optional_type', param });
/** What an optional holds; the type itself when it is not an optional. */
export const optionalParam = (t: CelType): CelType =>
  t.k === 'opaque' && t.name === 'optional_type' ? (t.param ?? dyn) : t;
/** cel-go's isScalar: a type of one fixed size (an optional of one too). */
export const isScalar = (t: CelType): boolean =>
  ['bool', 'double', 'duration', 'int', 'timestamp', 'uint'].includes(t.k) ||
  (t.k === 'opaque' && t.name === 'optional_type' && t.param !== undefined && isScalar(t.param));
const elementOf = (t: CelType | undefined): CelType =>
  t?.k === 'list' ? t.elem : t?.k === 'map' ? t.value : dyn;

/** The CEL type of a value of the declared type. */
export function declCelType(decl: DeclType | undefined): CelType {
  if (decl === undefined) return dyn;
  const kind = decl.kind;
  if (kind === 'object') return { k: 'struct', name: 'object', decl };
  if (kind === 'list') return listOf(declCelType(decl.elem));
  if (kind === 'map') return { k: 'map', key: scalar('string'), value: declCelType(decl.elem) };
  return scalar(kind);
}

export function sameType(a: CelType, b: CelType): boolean {
  if (a.k === 'list') return b.k === 'list' && sameType(a.elem, b.elem);
  if (a.k === 'map') return b.k === 'map' && sameType(a.key, b.key) && sameType(a.value, b.value);
  if (a.k === 'struct' || a.k === 'opaque') return b.k === a.k && a.name === b.name;
  return a.k === b.k;
}

/** The type two branches share, dyn where they differ. */
export const common = (a: CelType | undefined, b: CelType | undefined): CelType =>
  a !== undefined && b !== undefined && sameType(a, b) ? a : dyn;

export const is = (t: CelType | undefined, ...kinds: CelType['k'][]): boolean =>
  t !== undefined && (t.k === 'dyn' || kinds.includes(t.k));

const orderedKinds: CelType['k'][] = ['int', 'uint', 'double', 'bool', 'timestamp', 'duration'];
const arithmeticKinds: CelType['k'][] = ['int', 'uint', 'double', 'timestamp', 'duration'];

function boolFn(): CelType {
  return scalar('bool');
}

// Result types of functions by name (the few that depend on their operands are in resultType).
const resultByName: Readonly<Record<string, () => CelType>> = {
  '_&&_': boolFn,
  '_||_': boolFn,
  '!_': boolFn,
  '@not_strictly_false': boolFn,
  '_==_': boolFn,
  '_!=_': boolFn,
  '_<_': boolFn,
  '_<=_': boolFn,
  '_>_': boolFn,
  '_>=_': boolFn,
  '@in': boolFn,
  matches: boolFn,
  startsWith: boolFn,
  endsWith: boolFn,
  contains: boolFn,
  isSorted: boolFn,
  hasValue: boolFn,
  bool: boolFn,
  size: () => scalar('int'),
  int: () => scalar('int'),
  indexOf: () => scalar('int'),
  lastIndexOf: () => scalar('int'),
  uint: () => scalar('uint'),
  double: () => scalar('double'),
  string: () => scalar('string'),
  lowerAscii: () => scalar('string'),
  upperAscii: () => scalar('string'),
  trim: () => scalar('string'),
  replace: () => scalar('string'),
  substring: () => scalar('string'),
  charAt: () => scalar('string'),
  join: () => scalar('string'),
  find: () => scalar('string'),
  format: () => scalar('string'),
  'strings.quote': () => scalar('string'),
  bytes: () => scalar('bytes'),
  duration: () => scalar('duration'),
  timestamp: () => scalar('timestamp'),
  type: () => scalar('type'),
  dyn: () => dyn,
  split: () => listOf(scalar('string')),
  findAll: () => listOf(scalar('string')),
  quantity: () => libStruct('kubernetes.Quantity'),
  url: () => libStruct('kubernetes.URL'),
  semver: () => libStruct('kubernetes.Semver'),
  'format.named': () => optionalOf(libStruct('kubernetes.NamedFormat')),
  ip: () => libOpaque('net.IP'),
  cidr: () => libOpaque('net.CIDR'),
};

function arithmeticResult(f: string, a: CelType | undefined, b: CelType | undefined): CelType {
  if (a === undefined || b === undefined) return dyn;
  if (f === '_+_' && a.k === 'timestamp' && b.k === 'duration') return a;
  if (f === '_+_' && a.k === 'duration' && b.k === 'timestamp') return b;
  if (f === '_-_' && a.k === 'timestamp') return b.k === 'timestamp' ? scalar('duration') : a;
  if (a.k === 'list' && b.k === 'list') return listOf(common(a.elem, b.elem));
  return common(a, b);
}

export function resultType(f: string, target: CelType | undefined, args: readonly CelType[]): CelType {
  const byName = resultByName[f];
  if (byName !== undefined) return byName();
  switch (f) {
    case '_+_':
    case '_-_':
    case '_*_':
    case '_/_':
    case '_%_':
      return arithmeticResult(f, args[0], args[1]);
    case '-_':
      return args[0] ?? dyn;
    case '_?_:_':
      return common(args[1], args[2]);
    case '_[_]': {
      const on = args[0];
      if (on?.k === 'list') return on.elem;
      if (on?.k === 'map') return on.value;
      return dyn;
    }
    case 'sum':
    case 'min':
    case 'max':
      return target?.k === 'list' ? target.elem : dyn;
    case 'value':
    case 'orValue':
      return target?.k === 'opaque' && target.param !== undefined ? target.param : dyn;
    case optIndex:
    case optChainIndex:
      return optionalOf(elementOf(args[0] === undefined ? undefined : optionalParam(args[0])));
    case 'optional.of':
    case 'optional.ofNonZeroValue':
      return optionalOf(args[0] ?? dyn);
    case 'optional.none':
      return optionalOf(dyn);
    case 'or':
      return target ?? dyn;
    case 'first':
    case 'last':
      return optionalOf(elementOf(target));
    case 'optional.unwrap':
    case 'unwrapOpt':
      return listOf(dyn);
    case optMapEntries:
      return { k: 'map', key: dyn, value: dyn };
    case 'validate':
      return optionalOf(listOf(scalar('string')));
    default:
      return dyn;
  }
}

/** The overloads cel-go's checker would pick for a call, by its operands' types. */
export function overloadsOf(
  f: string,
  call: { member: boolean; target?: CelType; args: readonly CelType[] },
): string[] {
  const [a, b] = call.args;
  const both = (...kinds: CelType['k'][]): boolean => is(a, ...kinds) && is(b, ...kinds);
  const picked = (entries: [string, boolean][]): string[] => entries.filter(([, ok]) => ok).map(([id]) => id);
  switch (f) {
    case '_==_':
      return ['equals'];
    case '_!=_':
      return ['not_equals'];
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return picked([
        ['compare_string', both('string')],
        ['compare_bytes', both('bytes')],
        ['compare_other', both(...orderedKinds)],
      ]);
    case '_+_':
      return picked([
        ['add_bytes', both('bytes')],
        ['add_list', both('list')],
        ['add_string', both('string')],
        ['add_other', both(...arithmeticKinds)],
      ]);
    case '@in':
      return picked([
        ['in_list', is(b, 'list')],
        ['in_map', is(b, 'map')],
      ]);
    case '_[_]':
      return picked([
        ['index_list', is(a, 'list')],
        ['index_map', is(a, 'map')],
      ]);
    case '_&&_':
      return ['logical_and'];
    case '_||_':
      return ['logical_or'];
    case '_?_:_':
      return ['conditional'];
    case 'contains':
      return [call.member && is(call.target, 'string') ? 'contains_string' : 'other'];
    case 'startsWith':
      return ['starts_with_string'];
    case 'endsWith':
      return ['ends_with_string'];
    case 'matches':
      return [call.member ? 'matches_string' : 'matches'];
    case 'format':
      return [call.member ? 'string_format' : 'other'];
    case 'strings.quote':
      return ['strings_quote'];
    case 'string':
      return is(a, 'bytes') ? ['bytes_to_string', ...(a?.k === 'dyn' ? ['other'] : [])] : ['other'];
    case 'bytes':
      return is(a, 'string') ? ['string_to_bytes', ...(a?.k === 'dyn' ? ['other'] : [])] : ['other'];
    case 'sets.contains':
      return ['list_sets_contains_list'];
    case 'sets.intersects':
      return ['list_sets_intersects_list'];
    case 'sets.equivalent':
      return ['list_sets_equivalent_list'];
    case 'ip':
      return [call.member && call.target?.k === 'opaque' ? 'cidr_ip' : 'string_to_ip'];
    case 'containsIP':
      return [is(a, 'string') && a?.k !== 'dyn' ? 'cidr_contains_ip_string' : 'cidr_contains_ip_ip'];
    case 'containsCIDR':
      return [is(a, 'string') && a?.k !== 'dyn' ? 'cidr_contains_cidr_string' : 'cidr_contains_cidr'];
    default:
      return ['other'];
  }
}

export const constType = (kind: string | undefined): CelType => scalar(constantKind(kind));

/** A field of an object or a map's value; dyn when the type does not say. */
export function fieldType(on: CelType, field: string): CelType {
  if (on.k === 'struct') return on.decl === undefined ? dyn : declCelType(on.decl.fields?.get(field));
  if (on.k === 'map') return on.value;
  return dyn;
}

/** What an estimator knows of an operand (cel-go's AstNode). */
export interface Operand {
  /** Where it is in the rule's value; undefined for computed values and accumulators. */
  readonly path: readonly string[] | undefined;
  readonly type: CelType;
  readonly expr: Expr | undefined;
  readonly size: Estimate | undefined;
}

export interface CallEstimate {
  readonly cost: Estimate;
  readonly resultSize?: Estimate;
}

/** A literal's size: a string's runes, bytes' bytes, 1 for other scalars, a list's or map's entries. */
export function literalSize(e: Expr): Estimate | undefined {
  const k = e.exprKind;
  if (k.case === 'constExpr') {
    const c = k.value.constantKind;
    if (c.case === 'stringValue') return fixed(runeCount(c.value));
    if (c.case === 'bytesValue') return fixed(c.value.length);
    return c.case === undefined ? undefined : fixed(1);
  }
  if (k.case === 'listExpr') return fixed(k.value.elements.length);
  if (k.case === 'structExpr' && k.value.messageName === '') return fixed(k.value.entries.length);
  return undefined;
}

/** A string's code points (Go's []rune of it): a surrogate pair is one. */
function runeCount(s: string): number {
  let pairs = 0;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return s.length - pairs;
}
