// A small static check of a parsed rule, standing in for cel-go's type checker, which
// @bufbuild/cel does not export: undeclared identifiers and functions (namespaced ones such as
// ip.isCanonical included), fields the structural schema does not declare (by their escaped
// names), field selection on scalars, operators over two known scalar types that no overload
// takes, and a result type that cannot be a bool. Types it cannot infer are dynamic and pass; what
// slips through fails when the rule runs.
import { propertyNames } from './escaping.js';
import { stringLiteral } from './expr-builder.js';
import { homogeneousIssues, literalArgumentIssue, type LiteralContext } from './literal-checks.js';
import type { CelModule } from './load.js';
import { innerOf, optionalOf, schemaType, t, type CelT, type ScalarKind } from './check-types.js';
import { optChainIndex, optChainSelect, optIndex, optMapEntries, optSelect } from './optional-syntax.js';
import { celTypeName, constantKind, isOperandKind, operatorKind } from './scalar-operators.js';
import { mapInsert, twoVarRange } from './two-var-comprehensions.js';
import {
  boolFunctions,
  castFunctions,
  plannerOperators,
  stringFunctions,
  typeIdents,
} from './check-tables.js';

type Expr = ReturnType<CelModule['parse']>['expr'];

export { optionalOf, schemaType, scalarKinds, type CelT } from './check-types.js';

export interface CheckIssue {
  readonly offset: number;
  readonly message: string;
  /** The offset is where a binary operator's left operand ends (the operator follows). */
  readonly atOperator?: boolean;
}

export interface CheckResult {
  readonly issues: CheckIssue[];
  /**
   * Go's error for a constant find()/findAll() pattern that does not compile: kube's regex library
   * compiles those when the program is built ("program instantiation failed: …").
   */
  readonly programError: string | undefined;
  readonly type: CelT;
  readonly usesOldSelf: boolean;
}

type Scope = ReadonlyMap<string, CelT>;

class Checker {
  readonly issues: CheckIssue[] = [];
  /** cel-go's AST validators (literal-checks.ts): reported when the rest passes. */
  readonly literalIssues: CheckIssue[] = [];
  programError: string | undefined;
  usesOldSelf = false;
  readonly #positions: Readonly<Record<string, number>>;
  readonly #knownFunction: (name: string) => boolean;
  readonly #literals: LiteralContext;
  /** Inside a format() call's argument lists, where literals may mix types. */
  #mixedLiterals = false;

  constructor(positions: Readonly<Record<string, number>>, functions: CheckFunctions) {
    this.#positions = positions;
    this.#knownFunction = functions.known;
    const { evaluatesToError } = functions;
    this.#literals = { offsetOf: (e) => positions[String(e.id)] ?? 0, evaluatesToError };
  }

  #issue(e: Expr, message: string, atOperator = false): CelT {
    const offset = this.#positions[String(e.id)] ?? 0;
    this.issues.push(atOperator ? { offset, message, atOperator } : { offset, message });
    return t('dyn');
  }

  infer(e: Expr | undefined, scope: Scope): CelT {
    if (e === undefined) return t('dyn');
    // A format() argument's nested lists and maps may mix types; anything else inside them not.
    const mixed = this.#mixedLiterals;
    if (e.exprKind.case !== 'listExpr' && e.exprKind.case !== 'structExpr') this.#mixedLiterals = false;
    try {
      return this.#infer(e, scope);
    } finally {
      this.#mixedLiterals = mixed;
    }
  }

  #infer(e: Expr, scope: Scope): CelT {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return constType(k.value.constantKind.case);
      case 'identExpr': {
        const found = scope.get(k.value.name);
        if (k.value.name === 'oldSelf' && found !== undefined) this.usesOldSelf = true;
        if (found !== undefined) return found;
        if (typeIdents.has(k.value.name)) return t('type');
        return this.#issue(e, `undeclared reference to '${k.value.name}' (in container '')`);
      }
      case 'selectExpr':
        return this.#select(e, scope);
      case 'callExpr':
        return this.#call(e, scope);
      case 'listExpr': {
        const elements = k.value.elements.map((expr) => ({ expr, kind: this.infer(expr, scope).kind }));
        if (!this.#mixedLiterals) this.literalIssues.push(...homogeneousIssues(this.#literals, [elements]));
        return t('list');
      }
      case 'structExpr':
        return this.#struct(e, scope);
      case 'comprehensionExpr': {
        const c = k.value;
        const range = this.infer(c.iterRange, scope);
        const accu = this.infer(c.accuInit, scope);
        const inner = new Map(scope).set(c.accuVar, accu).set(c.iterVar, elementType(range));
        if (c.iterVar2 !== '') inner.set(c.iterVar2, t('dyn'));
        this.infer(c.loopCondition, inner);
        this.infer(c.loopStep, inner);
        return this.infer(c.result, new Map(scope).set(c.accuVar, accu));
      }
      case undefined:
        return t('dyn');
    }
  }

  /** A map literal (its keys and values each of one type) or a message. */
  #struct(e: Expr, scope: Scope): CelT {
    if (e.exprKind.case !== 'structExpr') return t('dyn');
    const keys: { expr: Expr; kind: string }[] = [];
    const values: { expr: Expr; kind: string }[] = [];
    for (const entry of e.exprKind.value.entries) {
      if (entry.keyKind.case === 'mapKey')
        keys.push({ expr: entry.keyKind.value, kind: this.infer(entry.keyKind.value, scope).kind });
      if (entry.value !== undefined)
        values.push({ expr: entry.value, kind: this.infer(entry.value, scope).kind });
    }
    if (e.exprKind.value.messageName !== '') return t('dyn');
    if (!this.#mixedLiterals) this.literalIssues.push(...homogeneousIssues(this.#literals, [keys, values]));
    return t('map');
  }

  #select(e: Expr, scope: Scope): CelT {
    if (e.exprKind.case !== 'selectExpr') return t('dyn');
    const { operand, field, testOnly } = e.exprKind.value;
    return this.#field(e, this.infer(operand, scope), { field, testOnly });
  }

  /** The type of `field` of a value of type `on` (a presence test's bool when `testOnly`). */
  #field(e: Expr, on: CelT, opts: { field: string; testOnly: boolean }): CelT {
    const { field, testOnly } = opts;
    if (on.kind === 'schema') {
      const s = on.schema;
      if (
        s.type === 'object' &&
        s.properties !== undefined &&
        s['x-kubernetes-preserve-unknown-fields'] !== true
      ) {
        const prop = propertyNames(s.properties).byEscaped.get(field);
        if (prop === undefined) return this.#issue(e, `undefined field '${field}'`);
        return testOnly ? t('bool') : schemaType(prop);
      }
      if (typeof s.additionalProperties === 'object')
        return testOnly ? t('bool') : schemaType(s.additionalProperties);
    } else if (['string', 'int', 'uint', 'double', 'bool', 'bytes'].includes(on.kind)) {
      return this.#issue(e, `type '${on.kind}' does not support field selection`);
    }
    return testOnly ? t('bool') : t('dyn');
  }

  #call(e: Expr, scope: Scope): CelT {
    if (e.exprKind.case !== 'callExpr') return t('dyn');
    const c = e.exprKind.value;
    // `ip.isCanonical(s)`: a namespaced function, where `ip` names no variable.
    const namespace = c.target?.exprKind.case === 'identExpr' ? c.target.exprKind.value.name : undefined;
    const qualified =
      namespace !== undefined && !scope.has(namespace) && this.#knownFunction(`${namespace}.${c.function}`)
        ? `${namespace}.${c.function}`
        : undefined;
    const target =
      c.target === undefined || qualified !== undefined ? undefined : this.infer(c.target, scope);
    const f = qualified ?? c.function;
    const args = c.args.map((a) => {
      this.#mixedLiterals = f === 'format';
      return this.infer(a, scope);
    });
    this.#mixedLiterals = false;
    // cel-go's validators look at the first argument of either form of matches() and of the
    // duration() and timestamp() conversions; kube's find()/findAll() optimization at the pattern of
    // the method form.
    const literal =
      f === 'matches' ||
      ((f === 'find' || f === 'findAll') && c.target !== undefined) ||
      ((f === 'duration' || f === 'timestamp') && c.target === undefined);
    if (literal) this.#literalArgument(f, e, c.args[0]);
    if (!plannerOperators.has(f) && !this.#knownFunction(f))
      return this.#issue(e, `undeclared reference to '${f}' (in container '')`);
    const [a, b] = args;
    if (c.target === undefined && args.length === 2 && a !== undefined && b !== undefined) {
      const optional = optionalOperands(f, a, b);
      if (optional !== undefined)
        return this.#issue(e, `found no matching overload for '${f}' applied to '(${optional})'`, true);
      const operated = operatorKind(f, a.kind, b.kind);
      if (operated === 'mismatch')
        return this.#issue(
          e,
          `found no matching overload for '${f}' applied to '(${celTypeName(a.kind)}, ${celTypeName(b.kind)})'`,
          true,
        );
      if (operated !== undefined) return t(operated);
    }
    if (boolFunctions.has(f)) return t('bool');
    if (f === 'size' || f === 'indexOf' || f === 'lastIndexOf') return t('int');
    if (stringFunctions.has(f)) return t('string');
    if (f === 'split' || f === 'findAll') return t('list');
    if (castFunctions.has(f) && c.target === undefined) return t(f === 'type' ? 'type' : (f as ScalarKind));
    if (f === '_?_:_') return same(args[1], args[2]);
    if (f === '-_') return args[0] ?? t('dyn');
    if (['_+_', '_-_', '_*_', '_/_', '_%_'].includes(f)) return same(args[0], args[1]);
    if (f === '_[_]') return elementType(args[0] ?? t('dyn'), true);
    if (target !== undefined && (f === 'value' || f === 'orValue')) return innerOf(target) ?? target;
    return this.#libraryCall(e, { f, target, args, argExprs: c.args }) ?? t('dyn');
  }

  /**
   * The type of a call of the optional or format library, of the accesses the optional syntax
   * stands for, or of the functions two-variable comprehensions expand to.
   */
  #libraryCall(
    e: Expr,
    call: { f: string; target: CelT | undefined; args: readonly CelT[]; argExprs: readonly Expr[] },
  ): CelT | undefined {
    const { f, target, args } = call;
    const [on = t('dyn')] = args;
    const element = (range: CelT): CelT => elementType(range, true);
    switch (f) {
      case optSelect:
      case optChainSelect: {
        const field = stringLiteral(call.argExprs[1]);
        if (field === undefined) return optionalOf(t('dyn'));
        const type = this.#field(e, innerOf(on) ?? on, { field, testOnly: false });
        return type.kind === 'optional' ? type : optionalOf(type);
      }
      case optIndex:
      case optChainIndex:
        return optionalOf(element(innerOf(on) ?? on));
      case 'optional.of':
      case 'optional.ofNonZeroValue':
        return optionalOf(on);
      case 'optional.none':
        return optionalOf(t('dyn'));
      case 'or':
        return target;
      case 'first':
      case 'last':
        return optionalOf(target === undefined ? t('dyn') : element(target));
      case 'optional.unwrap':
      case 'unwrapOpt':
        return t('list');
      case optMapEntries:
      case mapInsert:
        return t('map');
      case twoVarRange:
        return t('list');
      case 'format.named':
        return optionalOf(t('dyn'));
      case 'validate':
        return target === undefined ? undefined : optionalOf(t('list'));
      default:
        return undefined;
    }
  }

  #literalArgument(f: string, call: Expr, arg: Expr | undefined): void {
    const issue = literalArgumentIssue(this.#literals, { f, call, arg });
    if (issue === undefined) return;
    if ('programError' in issue) this.programError ??= issue.programError;
    else this.literalIssues.push(issue);
  }
}

/** A known scalar type's name in cel-go's messages, an optional of one included. */
function scalarName(type: CelT): string | undefined {
  if (type.kind === 'optional') {
    const inner = scalarName(type.inner);
    return inner === undefined || type.inner.kind === 'optional' ? undefined : `optional_type(${inner})`;
  }
  return isOperandKind(type.kind) ? celTypeName(type.kind) : undefined;
}

/**
 * The operand types of an operator over an optional of a known scalar and a known scalar, or over
 * two such optionals (equality aside), which no overload takes (`self.?replicas > 0`); undefined
 * otherwise. Equality with null and between optionals is left to the evaluation.
 */
function optionalOperands(f: string, a: CelT, b: CelT): string | undefined {
  if (operatorKind(f, 'int', 'int') === undefined) return undefined;
  if (a.kind !== 'optional' && b.kind !== 'optional') return undefined;
  if ((f === '_==_' || f === '_!=_') && a.kind === 'optional' && b.kind === 'optional') return undefined;
  const [x, y] = [scalarName(a), scalarName(b)];
  return x === undefined || y === undefined ? undefined : `${x}, ${y}`;
}

const constType = (kind: string | undefined): CelT => t(constantKind(kind));

function same(a: CelT | undefined, b: CelT | undefined): CelT {
  if (a === undefined || b === undefined) return t('dyn');
  if (a.kind === 'schema' || b.kind === 'schema')
    return a.kind === 'schema' && b.kind === 'schema' && a.schema === b.schema ? a : t('dyn');
  return a.kind === b.kind ? a : t('dyn');
}

/** The type of a list's elements or a map's values; a map iterates its keys. */
function elementType(range: CelT, index = false): CelT {
  if (range.kind !== 'schema') return t('dyn');
  const s = range.schema;
  if (s.type === 'array')
    return s.items === undefined || Array.isArray(s.items) ? t('dyn') : schemaType(s.items);
  if (!index) return t('string');
  return typeof s.additionalProperties === 'object' ? schemaType(s.additionalProperties) : t('dyn');
}

/** Checks a parsed expression with self (and oldSelf) bound to the given types. */
export function checkExpr(
  parsed: ReturnType<CelModule['parse']>,
  vars: { self: CelT; oldSelf: CelT; functions: CheckFunctions },
): CheckResult {
  const scope = new Map([
    ['self', vars.self],
    ['oldSelf', vars.oldSelf],
  ]);
  return checkExprIn(parsed, { scope, functions: vars.functions });
}

/** The environment's functions as the check asks of them. */
export interface CheckFunctions {
  readonly known: (name: string) => boolean;
  /** Whether evaluating a call of constants fails (literal-checks.ts). */
  readonly evaluatesToError: (call: Expr) => boolean;
}

/** Checks a parsed expression with the given variables declared (admission policies' object, params…). */
export function checkExprIn(
  parsed: ReturnType<CelModule['parse']>,
  vars: { scope: ReadonlyMap<string, CelT>; functions: CheckFunctions },
): CheckResult {
  const checker = new Checker(parsed.sourceInfo?.positions ?? {}, vars.functions);
  const type = checker.infer(parsed.expr, vars.scope);
  const issues = checker.issues.length > 0 ? checker.issues : checker.literalIssues;
  return { issues, programError: checker.programError, type, usesOldSelf: checker.usesOldSelf };
}

/** Whether a checked type may be a bool (dynamic types may). */
export function mayBe(type: CelT, kind: 'bool' | 'string'): boolean {
  return type.kind === kind || type.kind === 'dyn';
}
