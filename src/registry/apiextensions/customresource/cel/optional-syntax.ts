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
import { markOptionalSyntax, type OptionalMarks } from './optional-marks.js';
import type { CelModule } from './load.js';

type Parsed = ReturnType<CelModule['parse']>;
type Expr = NonNullable<Parsed['expr']>;

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

/** A parse failure at an offset of the source, read as @bufbuild/cel's syntax errors are. */
export class OptionalSyntaxError extends Error {
  readonly rawMessage: string;
  readonly location: { readonly start: { readonly offset: number } };

  constructor(offset: number, message: string) {
    super(message);
    this.rawMessage = message;
    this.location = { start: { offset } };
  }
}

class Rewriter {
  #nextId: bigint;
  readonly #used = new Set<number>();
  readonly positions: Record<string, number>;
  readonly marks: ReturnType<typeof markOptionalSyntax>;

  constructor(positions: Record<string, number>, marks: ReturnType<typeof markOptionalSyntax>) {
    this.positions = positions;
    this.marks = marks;
    let max = 0n;
    for (const id of Object.keys(positions)) if (BigInt(id) > max) max = BigInt(id);
    this.#nextId = max + 1n;
  }

  /** The mark at `at` that `find` looks up, recorded as put back. */
  #take<T>(at: number, find: (marks: OptionalMarks) => T | undefined): T | undefined {
    const found = this.marks === undefined ? undefined : find(this.marks.marks);
    if (found !== undefined) this.#used.add(at);
    return found;
  }

  /** The offset of a mark that no node took (syntax nothing here rebuilds); undefined when none. */
  unused(): number | undefined {
    const m = this.marks?.marks;
    if (m === undefined) return undefined;
    const all = [...m.selects, ...m.indexes, ...m.elements.keys(), ...m.entries.keys()];
    return all.filter((at) => !this.#used.has(at)).sort((a, b) => a - b)[0];
  }

  #pos(e: Expr): number {
    return this.positions[String(e.id)] ?? 0;
  }

  #node(at: number, exprKind: Expr['exprKind']): Expr {
    const id = this.#nextId++;
    this.positions[String(id)] = at;
    return { $typeName: 'cel.expr.Expr', id, exprKind };
  }

  #call(at: number, fn: string, args: Expr[]): Expr {
    const value = { $typeName: 'cel.expr.Expr.Call', function: fn, args };
    return this.#node(at, { case: 'callExpr', value } as Expr['exprKind']);
  }

  /** A member call without arguments: `target.fn()`. */
  #method(at: number, fn: string, target: Expr): Expr {
    const value = { $typeName: 'cel.expr.Expr.Call', function: fn, args: [], target };
    return this.#node(at, { case: 'callExpr', value } as Expr['exprKind']);
  }

  #constant(
    at: number,
    constantKind: { case: 'stringValue'; value: string } | { case: 'boolValue'; value: boolean },
  ): Expr {
    const value = { $typeName: 'cel.expr.Constant', constantKind };
    return this.#node(at, { case: 'constExpr', value } as Expr['exprKind']);
  }

  #string(at: number, s: string): Expr {
    return this.#constant(at, { case: 'stringValue', value: s });
  }

  #ident(at: number, name: string): Expr {
    return this.#node(at, {
      case: 'identExpr',
      value: { $typeName: 'cel.expr.Expr.Ident', name },
    });
  }

  /** A copy of `e` with fresh ids (a macro's expansion uses its target twice). */
  #copy(e: Expr): Expr {
    return this.#node(
      this.#pos(e),
      structuredCloneExpr(e, (child) => this.#copy(child)),
    );
  }

  /** `e` with the optional syntax under it (and at it) put back. */
  rewrite(e: Expr): Expr {
    const k = e.exprKind;
    switch (k.case) {
      case 'selectExpr': {
        const operand = k.value.operand === undefined ? undefined : this.rewrite(k.value.operand);
        const at = this.#pos(e);
        if (operand !== undefined && !k.value.testOnly) {
          if (this.#take(at, (m) => (m.selects.has(at) ? true : undefined)) === true)
            return this.#call(at, optSelect, [operand, this.#string(at + 2, k.value.field)]);
          if (isOptionalAccess(operand))
            return this.#call(at, optChainSelect, [operand, this.#string(at + 1, k.value.field)]);
        }
        k.value.operand = operand;
        return e;
      }
      case 'callExpr':
        return this.#rewriteCall(e, k.value);
      case 'listExpr': {
        k.value.elements = k.value.elements.map((el) => this.rewrite(el));
        const optional = this.#take(this.#pos(e), (m) => m.elements.get(this.#pos(e)));
        if (optional === undefined) return e;
        const at = this.#pos(e);
        k.value.elements = k.value.elements.map((el, i) =>
          optional.includes(i) ? el : this.#call(this.#pos(el), 'optional.of', [el]),
        );
        return this.#call(at, 'optional.unwrap', [e]);
      }
      case 'structExpr': {
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') entry.keyKind.value = this.rewrite(entry.keyKind.value);
          if (entry.value !== undefined) entry.value = this.rewrite(entry.value);
        }
        const optional = this.#take(this.#pos(e), (m) => m.entries.get(this.#pos(e)));
        return optional === undefined ? e : this.#optionalEntries(e, k.value, optional);
      }
      case 'comprehensionExpr': {
        const c = k.value;
        for (const key of ['iterRange', 'accuInit', 'loopCondition', 'loopStep', 'result'] as const) {
          const child = c[key];
          if (child !== undefined) c[key] = this.rewrite(child);
        }
        return e;
      }
      case 'constExpr':
      case 'identExpr':
      case undefined:
        return e;
    }
  }

  /**
   * A map literal with optional entries (`{a: 1, ?b: x}`): `@optMapEntries({a: 1}, [b], [x])`,
   * the map of its other entries and the keys and optional values of those, which the function
   * adds where the value is present.
   */
  #optionalEntries(
    e: Expr,
    struct: Extract<Expr['exprKind'], { case: 'structExpr' }>['value'],
    optional: readonly number[],
  ): Expr {
    const at = this.#pos(e);
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
    return this.#call(at, optMapEntries, [e, this.#list(at, keys), this.#list(at, values)]);
  }

  #list(at: number, elements: Expr[]): Expr {
    const value = { $typeName: 'cel.expr.Expr.CreateList', elements, optionalIndices: [] };
    return this.#node(at, { case: 'listExpr', value } as Expr['exprKind']);
  }

  #rewriteCall(e: Expr, c: Extract<Expr['exprKind'], { case: 'callExpr' }>['value']): Expr {
    if (c.target !== undefined) c.target = this.rewrite(c.target);
    c.args = c.args.map((a) => this.rewrite(a));
    const at = this.#pos(e);
    const [first] = c.args;
    if (c.function === '_[_]' && c.target === undefined && first !== undefined) {
      if (this.#take(at, (m) => (m.indexes.has(at) ? true : undefined)) === true) c.function = optIndex;
      else if (isOptionalAccess(first)) c.function = optChainIndex;
      return e;
    }
    const [v, body] = c.args;
    if (
      (c.function === 'optMap' || c.function === 'optFlatMap') &&
      c.target !== undefined &&
      c.args.length === 2 &&
      v !== undefined &&
      body !== undefined
    ) {
      if (v.exprKind.case !== 'identExpr')
        throw new OptionalSyntaxError(
          this.#pos(v),
          `${c.function}() variable name must be a simple identifier`,
        );
      return this.#expandOptMap(at, { fn: c.function, target: c.target, name: v.exprKind.value.name, body });
    }
    return e;
  }

  /**
   * cel-go's optMap and optFlatMap: `t.hasValue() ? optional.of(<body with v = t.value()>) :
   * optional.none()` (optFlatMap without the optional.of), the binding a comprehension over an
   * empty list whose accumulator is the variable.
   */
  #expandOptMap(at: number, m: { fn: string; target: Expr; name: string; body: Expr }): Expr {
    const comprehension = this.#node(at, {
      case: 'comprehensionExpr',
      value: {
        $typeName: 'cel.expr.Expr.Comprehension',
        iterVar: '#unused',
        iterVar2: '',
        iterRange: this.#list(at, []),
        accuVar: m.name,
        accuInit: this.#method(at, 'value', this.#copy(m.target)),
        loopCondition: this.#constant(at, { case: 'boolValue', value: false }),
        loopStep: this.#ident(at, m.name),
        result: m.body,
      },
    });
    const present = m.fn === 'optMap' ? this.#call(at, 'optional.of', [comprehension]) : comprehension;
    return this.#call(at, '_?_:_', [
      this.#method(at, 'hasValue', m.target),
      present,
      this.#call(at, 'optional.none', []),
    ]);
  }
}

/** The same node's kind with every child expression replaced by `child(it)`. */
function structuredCloneExpr(e: Expr, child: (e: Expr) => Expr): Expr['exprKind'] {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr':
      return { ...k, value: { ...k.value, operand: k.value.operand && child(k.value.operand) } };
    case 'callExpr':
      return {
        ...k,
        value: { ...k.value, target: k.value.target && child(k.value.target), args: k.value.args.map(child) },
      };
    case 'listExpr':
      return { ...k, value: { ...k.value, elements: k.value.elements.map(child) } };
    case 'structExpr':
      return {
        ...k,
        value: {
          ...k.value,
          entries: k.value.entries.map((entry) => ({
            ...entry,
            keyKind:
              entry.keyKind.case === 'mapKey'
                ? { case: 'mapKey' as const, value: child(entry.keyKind.value) }
                : entry.keyKind,
            value: entry.value && child(entry.value),
          })),
        },
      };
    case 'comprehensionExpr': {
      const c = k.value;
      const kid = (x: Expr | undefined): Expr | undefined => x && child(x);
      return {
        ...k,
        value: {
          ...c,
          iterRange: kid(c.iterRange),
          accuInit: kid(c.accuInit),
          loopCondition: kid(c.loopCondition),
          loopStep: kid(c.loopStep),
          result: kid(c.result),
        },
      };
    }
    case 'constExpr':
    case 'identExpr':
    case undefined:
      return k;
  }
}

const isOptionalAccess = (e: Expr): boolean =>
  e.exprKind.case === 'callExpr' &&
  e.exprKind.value.target === undefined &&
  optionalAccesses.has(e.exprKind.value.function);

const mayUseOptMap = /\bopt(Flat)?Map\s*\(/;

/**
 * Parses an expression as cel-go does with optional types on. Throws the parser's error for text
 * that does not parse, and an OptionalSyntaxError (read alike) for syntax nothing here evaluates.
 */
export function parseWithOptionals(cel: CelModule, source: string): Parsed {
  const marked = markOptionalSyntax(source);
  const parsed = cel.parse(marked?.text ?? source);
  if (marked === undefined && !mayUseOptMap.test(source)) return parsed;
  const positions = parsed.sourceInfo?.positions;
  if (positions === undefined) return parsed;
  const rewriter = new Rewriter(positions, marked);
  parsed.expr = rewriter.rewrite(parsed.expr);
  const unused = rewriter.unused();
  if (unused !== undefined) throw new OptionalSyntaxError(unused, "unsupported syntax '?'");
  return parsed;
}
