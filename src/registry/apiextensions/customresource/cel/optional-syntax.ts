// CEL's optional syntax in a parsed expression, as cel-go's parser builds it with OptionalTypes on
// (kube 1.33's environment has them): the marks optional-marks.ts blanked are put back as calls
// of the optional library's functions (optional-library.ts), and the optMap and optFlatMap
// macros are expanded as cel-go expands them. @bufbuild/cel plans `_?._` and `_[?_]` itself but
// has no optional values (an absent member is an error there), so the calls carry names of
// Capstan's own, which the planner looks up in the environment like any function:
// - `a.?b` is `@optSelect(a, "b")`, `a[?i]` is `@optIndex(a, i)`;
// - a member or an index of an optional chain (`a.?b.c`, `a[?0][1]`) is `@optChainSelect` /
//   `@optChainIndex`: none stays none, and a present value is selected strictly, as cel-go does;
// - a list with optional elements (`[a, ?b]`) is `optional.unwrap([optional.of(a), b])`, a map
//   with optional entries (`{a: 1, ?b: x}`) `@optMapEntries({a: 1}, [b], [x])`.
// Any other use of a mark (a message literal's optional field, `has(a.?b)`) is refused as cel-go
// refuses what it does not take: kube's environment constructs no messages.
import { CelSyntaxError, type CallNode, type Expr, type ExprBuilder } from './expr-builder.js';
import type { OptionalMarks } from './optional-marks.js';

export const optSelect = '@optSelect';
export const optIndex = '@optIndex';
export const optChainSelect = '@optChainSelect';
export const optChainIndex = '@optChainIndex';
export const optMapEntries = '@optMapEntries';
/** The calls that answer an optional from an access (a member or an index). */
export const optionalAccesses: ReadonlySet<string> = new Set([
  optSelect,
  optIndex,
  optChainSelect,
  optChainIndex,
]);

const isOptionalAccess = (e: Expr): boolean =>
  e.exprKind.case === 'callExpr' &&
  e.exprKind.value.target === undefined &&
  optionalAccesses.has(e.exprKind.value.function);

/** Whether an expression may call optMap or optFlatMap (a cheap look before a walk). */
export const mayUseOptMap = (source: string): boolean => /\bopt(Flat)?Map\s*\(/.test(source);

/** The rewrites of one expression's optional syntax, node by node, its children done first. */
export class OptionalRewrites {
  readonly #b: ExprBuilder;
  readonly #marks: OptionalMarks | undefined;
  readonly #used = new Set<number>();
  readonly #optionalVars: ReadonlySet<string>;

  /** `optionalVars`: variables bound to optionals (oldSelf with optionalOldSelf). */
  constructor(b: ExprBuilder, marks: OptionalMarks | undefined, optionalVars: ReadonlySet<string>) {
    this.#b = b;
    this.#marks = marks;
    this.#optionalVars = optionalVars;
  }

  /**
   * Whether `e` is optional by its form: an optional access, or a variable bound to an optional.
   * A member or an index of it continues the chain (cel-go types `o.f` on an optional `o` as an
   * optional).
   */
  #optionalChain(e: Expr): boolean {
    return (
      isOptionalAccess(e) ||
      (e.exprKind.case === 'identExpr' && this.#optionalVars.has(e.exprKind.value.name))
    );
  }

  /** The mark at `at` that `find` looks up, recorded as put back. */
  #take<T>(at: number, find: (marks: OptionalMarks) => T | undefined): T | undefined {
    const found = this.#marks === undefined ? undefined : find(this.#marks);
    if (found !== undefined) this.#used.add(at);
    return found;
  }

  /** The offset of a mark that no node took (syntax nothing here rebuilds); undefined when none. */
  unused(): number | undefined {
    const m = this.#marks;
    if (m === undefined) return undefined;
    const all = [...m.selects, ...m.indexes, ...m.elements.keys(), ...m.entries.keys()];
    return all.filter((at) => !this.#used.has(at)).sort((a, b) => a - b)[0];
  }

  /** `a.?b`, or a member of an optional chain. */
  select(e: Expr): Expr {
    if (e.exprKind.case !== 'selectExpr') return e;
    const { operand, field, testOnly } = e.exprKind.value;
    const at = this.#b.pos(e);
    if (operand === undefined || testOnly) return e;
    if (this.#take(at, (m) => (m.selects.has(at) ? true : undefined)) === true)
      return this.#b.call(at, optSelect, [operand, this.#b.string(at + 2, field)]);
    if (this.#optionalChain(operand))
      return this.#b.call(at, optChainSelect, [operand, this.#b.string(at + 1, field)]);
    return e;
  }

  /** `a[?i]`, an index of an optional chain, or optMap / optFlatMap. */
  call(e: Expr, c: CallNode): Expr {
    const at = this.#b.pos(e);
    const [first] = c.args;
    if (c.function === '_[_]' && c.target === undefined && first !== undefined) {
      if (this.#take(at, (m) => (m.indexes.has(at) ? true : undefined)) === true) c.function = optIndex;
      else if (this.#optionalChain(first)) c.function = optChainIndex;
      return e;
    }
    const [v, body] = c.args;
    const macro = c.function === 'optMap' || c.function === 'optFlatMap';
    if (!macro || c.target === undefined || c.args.length !== 2 || v === undefined || body === undefined)
      return e;
    if (v.exprKind.case !== 'identExpr')
      throw new CelSyntaxError(this.#b.pos(v), `${c.function}() variable name must be a simple identifier`);
    return this.#optMap(at, { fn: c.function, target: c.target, name: v.exprKind.value.name, body });
  }

  /** A list literal with optional elements. */
  list(e: Expr): Expr {
    if (e.exprKind.case !== 'listExpr') return e;
    const list = e.exprKind.value;
    const at = this.#b.pos(e);
    const optional = this.#take(at, (m) => m.elements.get(at));
    if (optional === undefined) return e;
    list.elements = list.elements.map((el, i) =>
      optional.includes(i) ? el : this.#b.call(this.#b.pos(el), 'optional.of', [el]),
    );
    return this.#b.call(at, 'optional.unwrap', [e]);
  }

  /**
   * A map literal with optional entries (`{a: 1, ?b: x}`): `@optMapEntries({a: 1}, [b], [x])`,
   * the map of its other entries and the keys and optional values of those, which the function
   * adds where the value is present.
   */
  struct(e: Expr): Expr {
    if (e.exprKind.case !== 'structExpr') return e;
    const struct = e.exprKind.value;
    const at = this.#b.pos(e);
    const optional = this.#take(at, (m) => m.entries.get(at));
    if (optional === undefined) return e;
    const keys: Expr[] = [];
    const values: Expr[] = [];
    struct.entries = struct.entries.filter((entry, i) => {
      if (!optional.includes(i)) return true;
      if (entry.keyKind.case === 'mapKey' && entry.value !== undefined) {
        keys.push(entry.keyKind.value);
        values.push(entry.value);
      }
      return false;
    });
    return this.#b.call(at, optMapEntries, [e, this.#b.list(at, keys), this.#b.list(at, values)]);
  }

  /**
   * cel-go's optMap and optFlatMap: `t.hasValue() ? optional.of(<body with v = t.value()>) :
   * optional.none()` (optFlatMap without the optional.of). cel-go's expansion copies `t` for the
   * value, so a chain of n of them holds 2^n copies; here `t` is bound once instead (one more
   * bind, 10 to the estimated cost).
   */
  #optMap(at: number, m: { fn: string; target: Expr; name: string; body: Expr }): Expr {
    const b = this.#b;
    const held = () => b.ident(at, '@opt');
    const bound = b.bind(at, { name: m.name, value: b.method(at, 'value', held()), body: m.body });
    const expansion = b.call(at, '_?_:_', [
      b.method(at, 'hasValue', held()),
      m.fn === 'optMap' ? b.call(at, 'optional.of', [bound]) : bound,
      b.call(at, 'optional.none', []),
    ]);
    return b.bind(at, { name: '@opt', value: m.target, body: expansion });
  }
}
