// Compiling a structural schema's x-kubernetes-validations once per CRD version (apiextensions-
// apiserver pkg/apiserver/schema/cel/compilation.go, and the CEL part of the CRD validation in
// pkg/apis/apiextensions/validation/validation.go), with the static cost limits the CRD's
// validation holds each expression and the schema's total to (cost.ts, cost-budget.ts). Programs
// are metered (metering.ts); validator.ts holds an object's evaluations to kube's runtime budget.
import type { JSONSchemaProps, ValidationRule } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { FieldError, FieldPath, type ErrorList } from '../../../../machinery/validation/index.js';
import { checkExpr, mayBe, optionalOf, schemaType, type CelT } from './check.js';
import { childCardinality, costErrorMessage, SchemaCost, staticEstimatedCostLimit } from './cost-budget.js';
import { multiplySaturating } from './cost-estimate.js';
import { estimateCost } from './cost.js';
import { declCelType, type CelType } from './cost-types.js';
import { maxCardinality, schemaDeclType, withTypeAndObjectMeta, type DeclType } from './decl-type.js';
import { escapeName } from './escaping.js';
import { validFieldPath } from './field-path.js';
import { loadCel, loadedCel, type CelLibrary } from './load.js';
import { formatIssue, ruleInvalid, syntaxIssue } from './rule-errors.js';
import { CustomResourceRuleValidator, type CompiledRule, type RuleNode } from './validator.js';

type Program = CompiledRule['program'];
type Parsed = ReturnType<CelLibrary['cel']['parse']>;

interface Walk {
  readonly lib: CelLibrary;
  readonly errs: ErrorList;
  /** The array above whose items old values cannot be correlated, if any. */
  readonly uncorrelatable: FieldPath | undefined;
  readonly costs: SchemaCost;
  /** An update whose version kept its schema is not held to the per-expression limit. */
  readonly suppressPerExpressionCost: boolean;
  /** Whether schema validation found errors at a node or below it, where rules are not compiled. */
  readonly schemaErrorsAt: (path: FieldPath) => boolean;
}

/** A schema node as the walk reaches it. */
interface NodeAt {
  readonly schema: JSONSchemaProps;
  readonly path: FieldPath;
  /** What CEL sees of the node (undefined where it sees nothing). */
  readonly decl: DeclType | undefined;
  /** How many values of the node one object can hold; undefined under an unbounded list or map. */
  readonly cardinality: bigint | undefined;
  /** The schema's root or an embedded resource, whose rules see kind, apiVersion and metadata. */
  readonly resourceRoot: boolean;
}

/** The variables of a node's rules and their message expressions. */
interface RuleVars {
  readonly self: CelT;
  readonly oldSelf: CelT;
  /** The same, as the cost estimator types them. */
  readonly costVars: ReadonlyMap<string, CelType>;
}

/** Why an expression was refused: at compilation (its issues) or when its program was built. */
interface CompileFailure {
  readonly stage: 'compilation' | 'instantiation';
  readonly text: string;
}

/** The variables an optionalOldSelf rule binds to optionals. */
const optionalOldSelf: ReadonlySet<string> = new Set(['oldSelf']);

/** Parses, checks and plans one expression; the failure when it does not compile. */
function compileExpr(
  w: Walk,
  opts: { source: string; self: CelT; oldSelf: CelT },
): { program: Program; parsed: Parsed; type: CelT; usesOldSelf: boolean } | CompileFailure {
  let parsed: Parsed;
  try {
    parsed = w.lib.parse(opts.source, opts.oldSelf.kind === 'optional' ? optionalOldSelf : undefined);
  } catch (err) {
    return { stage: 'compilation', text: formatIssue(opts.source, syntaxIssue(err)) };
  }
  const checked = checkExpr(parsed, {
    self: opts.self,
    oldSelf: opts.oldSelf,
    functions: w.lib.checkFunctions,
  });
  if (checked.issues.length > 0)
    return { stage: 'compilation', text: checked.issues.map((i) => formatIssue(opts.source, i)).join('\n') };
  if (checked.programError !== undefined) return { stage: 'instantiation', text: checked.programError };
  return { program: w.lib.plan(parsed), parsed, type: checked.type, usesOldSelf: checked.usesOldSelf };
}

/** Holds an expression's cost to the per-expression limit and adds it to the schema's total. */
function observeCost(w: Walk, expr: { at: FieldPath; name: string; cost: bigint }): void {
  const { at, name, cost } = expr;
  if (!w.suppressPerExpressionCost && cost > staticEstimatedCostLimit)
    w.errs.push(FieldError.forbidden(at, costErrorMessage(name, cost, staticEstimatedCostLimit)));
  w.costs.observe(at, cost);
}

/** The estimated cost of a compiled expression on a node (0 where CEL sees nothing of it). */
function estimatedCost(parsed: Parsed, node: NodeAt, vars: RuleVars): bigint {
  if (node.decl === undefined) return 0n;
  return estimateCost(parsed, { root: node.decl, vars: vars.costVars }).max;
}

function compileMessageExpression(
  w: Walk,
  opts: { rule: ValidationRule; node: NodeAt; at: FieldPath; vars: RuleVars },
): Program | undefined {
  const { rule, node, at, vars } = opts;
  const source = (rule.messageExpression ?? '').trim();
  if (source === '') return undefined;
  const out = compileExpr(w, { source, self: vars.self, oldSelf: vars.oldSelf });
  if ('stage' in out) {
    w.errs.push(ruleInvalid(at, rule, `messageExpression ${out.stage} failed: ${out.text}`));
    return undefined;
  }
  if (!mayBe(out.type, 'string')) {
    w.errs.push(ruleInvalid(at, rule, 'messageExpression must evaluate to a string'));
    return undefined;
  }
  // A message is built once per failure, so its cost is not multiplied by the node's cardinality.
  observeCost(w, {
    at,
    name: 'estimated messageExpression cost',
    cost: estimatedCost(out.parsed, node, vars),
  });
  return out.program;
}

/** The rule's fieldPath, normalized; '' when unset or invalid (schema validation reports that). */
function normalizedFieldPath(rule: ValidationRule, schema: JSONSchemaProps): string {
  const raw = rule.fieldPath ?? '';
  return raw === '' ? '' : (validFieldPath(raw, schema) ?? '');
}

function ruleVars(node: NodeAt, optionalOldSelf: boolean): RuleVars {
  const self = schemaType(node.resourceRoot ? withTypeAndObjectMeta(node.schema) : node.schema);
  const selfCost = declCelType(node.decl);
  const oldSelfCost: CelType = optionalOldSelf
    ? { k: 'opaque', name: 'optional_type', param: selfCost }
    : selfCost;
  return {
    self,
    oldSelf: optionalOldSelf ? optionalOf(self) : self,
    costVars: new Map([
      ['self', selfCost],
      ['oldSelf', oldSelfCost],
    ]),
  };
}

/**
 * The rule's estimated cost times how many times it can run in one object: the node's cardinality,
 * or, under an unbounded list or map, as many of its values as fit in a request.
 */
function ruleCost(parsed: Parsed, node: NodeAt, vars: RuleVars): bigint {
  const cost = estimatedCost(parsed, node, vars);
  if (cost === 0n || node.decl === undefined) return 0n;
  return multiplySaturating(cost, node.cardinality ?? maxCardinality(node.decl));
}

function compileRule(
  w: Walk,
  opts: { rule: ValidationRule; path: FieldPath; node: NodeAt },
): CompiledRule | undefined {
  const { rule, path, node } = opts;
  const source = ((rule.rule as string | undefined) ?? '').trim();
  if (source === '') return undefined;
  const vars = ruleVars(node, rule.optionalOldSelf === true);
  const out = compileExpr(w, { source, self: vars.self, oldSelf: vars.oldSelf });
  const rulePath = path.child('rule');
  if ('stage' in out) {
    const failed = out.stage === 'compilation' ? 'compilation failed' : 'program instantiation failed';
    w.errs.push(ruleInvalid(rulePath, rule, `${failed}: ${out.text}`));
    return undefined;
  }
  if (!mayBe(out.type, 'bool')) {
    w.errs.push(ruleInvalid(rulePath, rule, 'cel expression must evaluate to a bool'));
    return undefined;
  }
  observeCost(w, { at: rulePath, name: 'estimated rule cost', cost: ruleCost(out.parsed, node, vars) });
  const messageProgram = compileMessageExpression(w, {
    rule,
    node,
    at: path.child('messageExpression'),
    vars,
  });
  if (out.usesOldSelf && w.uncorrelatable !== undefined)
    w.errs.push(
      FieldError.invalid(
        rulePath,
        rule.rule,
        `oldSelf cannot be used on the uncorrelatable portion of the schema within ${w.uncorrelatable.toString()}`,
      ),
    );
  if (!out.usesOldSelf && rule.optionalOldSelf !== undefined)
    w.errs.push(
      FieldError.invalid(
        path.child('optionalOldSelf'),
        rule.optionalOldSelf,
        'may not be set if oldSelf is not used in rule',
      ),
    );
  const fieldPath = normalizedFieldPath(rule, node.schema);
  return {
    rule,
    program: out.program,
    usesOldSelf: out.usesOldSelf,
    fieldPath,
    ...(messageProgram === undefined ? {} : { messageProgram }),
  };
}

/** A child of a node: what CEL sees of it (as its parent's declared type has it) and how often it can occur. */
function childAt(
  parent: NodeAt,
  child: { schema: JSONSchemaProps; path: FieldPath; decl: DeclType | undefined },
): NodeAt {
  const embedded = child.schema['x-kubernetes-embedded-resource'] === true;
  return {
    schema: child.schema,
    path: child.path,
    decl: child.decl ?? schemaDeclType(child.schema, embedded),
    cardinality: childCardinality(parent.schema, parent.cardinality),
    resourceRoot: embedded,
  };
}

/** The rule tree of a schema node, or undefined when neither it nor anything below has rules. */
function compileNode(w: Walk, node: NodeAt): RuleNode | undefined {
  const { schema, path, decl } = node;
  const properties = new Map<string, RuleNode>();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const field = decl?.fields?.get(escapeName(name) ?? '');
    const at = { schema: prop, path: path.child('properties').key(name), decl: field };
    const compiled = compileNode(w, childAt(node, at));
    if (compiled !== undefined) properties.set(name, compiled);
  }
  const additional = schema.additionalProperties;
  const additionalProperties =
    typeof additional === 'object'
      ? compileNode(
          w,
          childAt(node, { schema: additional, path: path.child('additionalProperties'), decl: decl?.elem }),
        )
      : undefined;
  const itemSchema = schema.items;
  let items: RuleNode | undefined;
  if (itemSchema !== undefined && !Array.isArray(itemSchema)) {
    const correlatable = schema['x-kubernetes-list-type'] === 'map';
    const inner = correlatable ? w : { ...w, uncorrelatable: w.uncorrelatable ?? path };
    items = compileNode(
      inner,
      childAt(node, { schema: itemSchema, path: path.child('items'), decl: decl?.elem }),
    );
  }
  // As kube: a node's rules after those below it, and none where the schema has errors at or
  // below the node (its types may not be what the rules would see).
  const rules: CompiledRule[] = [];
  if (!w.schemaErrorsAt(path))
    (schema['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
      const compiled = compileRule(w, { rule, path: path.child('x-kubernetes-validations').index(i), node });
      if (compiled !== undefined) rules.push(compiled);
    });
  if (
    rules.length === 0 &&
    properties.size === 0 &&
    additionalProperties === undefined &&
    items === undefined
  )
    return undefined;
  return {
    schema,
    rules,
    properties,
    ...(additionalProperties === undefined ? {} : { additionalProperties }),
    ...(items === undefined ? {} : { items }),
  };
}

/** Whether any node of the schema has x-kubernetes-validations. */
export function hasRules(schema: JSONSchemaProps | undefined): boolean {
  if (schema === undefined) return false;
  if ((schema['x-kubernetes-validations'] ?? []).length > 0) return true;
  const additional = schema.additionalProperties;
  const items = schema.items;
  return (
    Object.values(schema.properties ?? {}).some(hasRules) ||
    (typeof additional === 'object' && hasRules(additional)) ||
    (items !== undefined && !Array.isArray(items) && hasRules(items))
  );
}

/**
 * The synchronous compile with an already loaded library; errors are under `path`, the schema's
 * (`…openAPIV3Schema`). `suppressPerExpressionCost` for an update that kept the version's schema:
 * its expressions' costs count towards the schema's total only.
 */
export function compileRulesWith(
  lib: CelLibrary,
  opts: {
    schema: JSONSchemaProps;
    path: FieldPath;
    suppressPerExpressionCost?: boolean;
    schemaErrorsAt?: (path: FieldPath) => boolean;
  },
): { errors: ErrorList; validator: CustomResourceRuleValidator | undefined } {
  const w: Walk = {
    lib,
    errs: [],
    uncorrelatable: undefined,
    costs: new SchemaCost(),
    suppressPerExpressionCost: opts.suppressPerExpressionCost ?? false,
    schemaErrorsAt: opts.schemaErrorsAt ?? (() => false),
  };
  const root = compileNode(w, {
    schema: opts.schema,
    path: opts.path,
    decl: schemaDeclType(opts.schema, true),
    cardinality: 1n,
    resourceRoot: true,
  });
  const validator = root === undefined ? undefined : new CustomResourceRuleValidator(lib, root);
  return { errors: [...w.errs, ...w.costs.errors(opts.path)], validator };
}

/**
 * Compiles every rule of a structural schema. Errors carry kube's paths below `path` (default
 * `openAPIV3Schema`); the validator is undefined when the schema has no rules, and then the CEL
 * library is never loaded.
 */
export async function compileCustomResourceRules(
  schema: JSONSchemaProps,
  opts: { path?: FieldPath } = {},
): Promise<{ errors: ErrorList; validator: CustomResourceRuleValidator | undefined }> {
  if (!hasRules(schema)) return { errors: [], validator: undefined };
  const lib = await loadCel();
  return compileRulesWith(lib, { schema, path: opts.path ?? FieldPath.of('openAPIV3Schema') });
}

/**
 * The CEL errors of a CRD schema for the synchronous CRD validation. The CRD store loads the
 * library before validating a CRD with rules (preloadCelFor); if it is not loaded, that is a bug
 * and is reported as an internal error instead of letting rules through unchecked.
 */
export function validateSchemaRules(
  schema: JSONSchemaProps,
  opts: { path: FieldPath; suppressPerExpressionCost: boolean; schemaErrors: ErrorList },
): ErrorList {
  if (!hasRules(schema)) return [];
  const lib = loadedCel();
  if (lib === undefined)
    return [
      FieldError.internal(opts.path.child('x-kubernetes-validations'), 'the CEL library is not loaded'),
    ];
  const { schemaErrors, ...rest } = opts;
  return compileRulesWith(lib, { schema, ...rest, schemaErrorsAt: errorsAtOrBelow(schemaErrors) }).errors;
}

/** Whether any of the errors is at a path or below it. */
function errorsAtOrBelow(errs: ErrorList): (path: FieldPath) => boolean {
  const fields = errs.map((e) => e.field);
  return (path) => {
    const at = path.toString();
    return fields.some((f) => f === at || f.startsWith(`${at}.`) || f.startsWith(`${at}[`));
  };
}

/** Loads the CEL library when any version of a CRD body has rules. */
export async function preloadCelFor(crd: unknown): Promise<void> {
  const versions = (crd as { spec?: { versions?: unknown } } | undefined)?.spec?.versions;
  if (!Array.isArray(versions)) return;
  const schemas = versions.map(
    (v) => (v as { schema?: { openAPIV3Schema?: JSONSchemaProps } } | undefined)?.schema?.openAPIV3Schema,
  );
  if (schemas.some(hasRules)) await loadCel();
}
