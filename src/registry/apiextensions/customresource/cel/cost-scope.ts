// What the cost estimator (cost.ts) knows of the expression as it walks it: each node's type,
// path in the rule's value, computed size and entry sizes, and the variables comprehensions bind.
// cel-go's coster keeps the same tables; sizes come from what was computed, a literal, the schema
// (decl-type.ts) or a scalar type, in that order (computeSize).
import { fixed, union, unknown, type Estimate } from './cost-estimate.js';
import { isScalar, dyn, literalSize, type CelType, type Expr, type Operand } from './cost-types.js';
import type { OperandSizes } from './cost-kube.js';
import { declaredSize, type DeclType } from './decl-type.js';

export interface EntrySize {
  readonly container: 'list' | 'map';
  readonly key: Estimate;
  readonly value: Estimate;
}

export interface LocalVar {
  readonly path: readonly string[];
  readonly size: Estimate | undefined;
  readonly entry: EntrySize | undefined;
  readonly type: CelType;
}

const isAccumulator = (name: string): boolean => name === '@result' || name === '__result__';

export const idOf = (e: Expr): string => String(e.id);

/** The estimator's tables, and the sizes and operands read from them. */
export class CostScope {
  protected readonly root: DeclType | undefined;
  protected readonly vars: ReadonlyMap<string, CelType>;
  protected readonly paths = new Map<string, readonly string[]>();
  protected readonly sizes = new Map<string, Estimate>();
  protected readonly entrySizes = new Map<string, EntrySize>();
  protected readonly types = new Map<string, CelType>();
  protected readonly locals = new Map<string, LocalVar[]>();
  protected readonly operandSizes: OperandSizes = { size: (n) => this.kubeSize(n) };

  constructor(root: DeclType | undefined, vars: ReadonlyMap<string, CelType>) {
    this.root = root;
    this.vars = vars;
  }

  protected type(e: Expr | undefined): CelType {
    return e === undefined ? dyn : (this.types.get(idOf(e)) ?? dyn);
  }

  protected local(name: string): LocalVar | undefined {
    const stack = this.locals.get(name);
    return stack?.[stack.length - 1];
  }

  protected push(name: string, v: LocalVar): void {
    const stack = this.locals.get(name) ?? [];
    stack.push(v);
    this.locals.set(name, stack);
  }

  protected pop(name: string): void {
    this.locals.get(name)?.pop();
  }

  protected path(e: Expr | undefined): readonly string[] {
    if (e === undefined) return [];
    if (e.exprKind.case === 'identExpr') {
      const v = this.local(e.exprKind.value.name);
      if (v !== undefined) return v.path;
    }
    return this.paths.get(idOf(e)) ?? [];
  }

  protected entryOf(e: Expr): EntrySize | undefined {
    const found = this.entrySizes.get(idOf(e));
    if (found !== undefined) return found;
    if (e.exprKind.case === 'identExpr') return this.local(e.exprKind.value.name)?.entry;
    return undefined;
  }

  protected operand(e: Expr): Operand {
    const path = this.path(e);
    return {
      path: path.length === 0 || isAccumulator(path[0] ?? '') ? undefined : path,
      type: this.type(e),
      expr: e,
      size: this.computeSize(e),
    };
  }

  /** The host's size of an operand: what was computed, else the schema's bound, else unknown. */
  protected kubeSize(n: Operand): Estimate {
    return n.size ?? declaredSize(this.root, n.path) ?? unknown;
  }

  /** The entry sizes of a value that is one of two operands, or both joined: what either holds. */
  protected unionEntrySizes(e: Expr, a: Operand | undefined, b: Operand | undefined): void {
    const first = a?.expr === undefined ? undefined : this.entryOf(a.expr);
    const second = b?.expr === undefined ? undefined : this.entryOf(b.expr);
    if (first === undefined || second === undefined) return;
    this.entrySizes.set(idOf(e), {
      container: first.container,
      key: union(first.key, second.key),
      value: union(first.value, second.value),
    });
  }

  protected sizeOrUnknown(e: Expr | undefined): Estimate {
    return (e === undefined ? undefined : this.computeSize(e)) ?? unknown;
  }

  /** cel-go's computeSize: what was computed, a literal's, the schema's, a scalar's, a variable's. */
  protected computeSize(e: Expr): Estimate | undefined {
    const id = idOf(e);
    const known = this.sizes.get(id);
    if (known !== undefined) return known;
    const literal = literalSize(e);
    if (literal !== undefined) return literal;
    const host = declaredSize(this.root, this.path(e));
    if (host !== undefined) {
      this.sizes.set(id, host);
      return host;
    }
    const type = this.type(e);
    if (isScalar(type)) return fixed(1);
    if (e.exprKind.case === 'identExpr') return this.local(e.exprKind.value.name)?.size;
    return undefined;
  }
}
