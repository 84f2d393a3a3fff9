// Building nodes of a parsed CEL expression (cel.expr.Expr messages, as @bufbuild/cel's parser makes
// them) for the syntax Capstan reads beyond that parser: optional syntax and macros
// (optional-syntax.ts), two-variable comprehensions (two-var-comprehensions.ts). New nodes get ids
// after the parser's and a source offset in the parse's positions, so errors point into the source.
import type { CelModule } from './load.js';

export type Parsed = ReturnType<CelModule['parse']>;
export type Expr = NonNullable<Parsed['expr']>;
export type CallNode = Extract<Expr['exprKind'], { case: 'callExpr' }>['value'];

/** A parse failure at an offset of the source, read as @bufbuild/cel's syntax errors are. */
export class CelSyntaxError extends Error {
  readonly rawMessage: string;
  readonly location: { readonly start: { readonly offset: number } };

  constructor(offset: number, message: string) {
    super(message);
    this.rawMessage = message;
    this.location = { start: { offset } };
  }
}

export interface ComprehensionParts {
  readonly iterRange: Expr;
  readonly iterVar: string;
  readonly accuVar: string;
  readonly accuInit: Expr;
  readonly loopCondition: Expr;
  readonly loopStep: Expr;
  readonly result: Expr;
}

export class ExprBuilder {
  #nextId: bigint;
  readonly #positions: Record<string, number>;

  constructor(positions: Record<string, number>) {
    this.#positions = positions;
    let max = 0n;
    for (const id of Object.keys(positions)) if (BigInt(id) > max) max = BigInt(id);
    this.#nextId = max + 1n;
  }

  /** Where `e` is in the source. */
  pos(e: Expr): number {
    return this.#positions[String(e.id)] ?? 0;
  }

  node(at: number, exprKind: Expr['exprKind']): Expr {
    const id = this.#nextId++;
    this.#positions[String(id)] = at;
    return { $typeName: 'cel.expr.Expr', id, exprKind };
  }

  call(at: number, fn: string, args: Expr[]): Expr {
    const value = { $typeName: 'cel.expr.Expr.Call', function: fn, args };
    return this.node(at, { case: 'callExpr', value } as Expr['exprKind']);
  }

  /** A member call without arguments: `target.fn()`. */
  method(at: number, fn: string, target: Expr): Expr {
    const value = { $typeName: 'cel.expr.Expr.Call', function: fn, args: [], target };
    return this.node(at, { case: 'callExpr', value } as Expr['exprKind']);
  }

  constant(
    at: number,
    constantKind:
      | { case: 'stringValue'; value: string }
      | { case: 'boolValue'; value: boolean }
      | { case: 'int64Value'; value: bigint }
      | { case: 'uint64Value'; value: bigint }
      | { case: 'doubleValue'; value: number }
      | { case: 'bytesValue'; value: Uint8Array }
      | { case: 'nullValue'; value: 0 },
  ): Expr {
    const value = { $typeName: 'cel.expr.Constant', constantKind };
    return this.node(at, { case: 'constExpr', value } as Expr['exprKind']);
  }

  string(at: number, s: string): Expr {
    return this.constant(at, { case: 'stringValue', value: s });
  }

  ident(at: number, name: string): Expr {
    return this.node(at, { case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name } });
  }

  list(at: number, elements: Expr[]): Expr {
    const value = { $typeName: 'cel.expr.Expr.CreateList', elements, optionalIndices: [] };
    return this.node(at, { case: 'listExpr', value } as Expr['exprKind']);
  }

  emptyMap(at: number): Expr {
    const value = { $typeName: 'cel.expr.Expr.CreateStruct', messageName: '', entries: [] };
    return this.node(at, { case: 'structExpr', value } as Expr['exprKind']);
  }

  comprehension(at: number, parts: ComprehensionParts): Expr {
    const value = { $typeName: 'cel.expr.Expr.Comprehension', iterVar2: '', ...parts };
    return this.node(at, { case: 'comprehensionExpr', value } as Expr['exprKind']);
  }

  /**
   * `body` with `name` bound to `value`, as cel-go's cel.bind expands: a comprehension over an
   * empty list whose accumulator is the variable.
   */
  bind(at: number, b: { name: string; value: Expr; body: Expr }): Expr {
    return this.comprehension(at, {
      iterRange: this.list(at, []),
      iterVar: '#unused',
      accuVar: b.name,
      accuInit: b.value,
      loopCondition: this.constant(at, { case: 'boolValue', value: false }),
      loopStep: this.ident(at, b.name),
      result: b.body,
    });
  }
}

/** A string literal's value; undefined for any other node. */
export function stringLiteral(e: Expr | undefined): string | undefined {
  const k = e?.exprKind;
  return k?.case === 'constExpr' && k.value.constantKind.case === 'stringValue'
    ? k.value.constantKind.value
    : undefined;
}

/** The child expressions of a node. */
export function childrenOf(e: Expr): Expr[] {
  const out: Expr[] = [];
  mapChildren(e, (child) => {
    out.push(child);
    return child;
  });
  return out;
}

/** The same node's kind with every child expression replaced by `child(it)`. */
export function mapChildren(e: Expr, child: (e: Expr) => Expr): Expr['exprKind'] {
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
