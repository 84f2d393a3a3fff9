// Compiling a structural schema's x-kubernetes-validations once per CRD version (apiextensions-
// apiserver pkg/apiserver/schema/cel/compilation.go, and the CEL part of the CRD validation in
// pkg/apis/apiextensions/validation/validation.go). Cost estimation is not done.
import type { JSONSchemaProps, ValidationRule } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { FieldError, FieldPath, type ErrorList } from '../../../../machinery/validation/index.js';
import { checkExpr, mayBe, schemaType, type CelT } from './check.js';
import { validFieldPath } from './field-path.js';
import { loadCel, loadedCel, type CelLibrary } from './load.js';
import { formatIssue, ruleInvalid } from './rule-errors.js';
import { CustomResourceRuleValidator, type CompiledRule, type RuleNode } from './validator.js';

type Program = CompiledRule['program'];

interface Walk {
  readonly lib: CelLibrary;
  readonly errs: ErrorList;
  /** The array above whose items old values cannot be correlated, if any. */
  readonly uncorrelatable: FieldPath | undefined;
}

/** Why an expression was refused: at compilation (its issues) or when its program was built. */
interface CompileFailure {
  readonly stage: 'compilation' | 'instantiation';
  readonly text: string;
}

/** Parses, checks and plans one expression; the failure when it does not compile. */
function compileExpr(
  w: Walk,
  opts: { source: string; self: CelT; oldSelf: CelT },
): { program: Program; type: CelT; usesOldSelf: boolean } | CompileFailure {
  const { cel, env } = w.lib;
  let parsed: ReturnType<typeof cel.parse>;
  try {
    parsed = cel.parse(opts.source);
  } catch (err) {
    const e = err as { rawMessage?: string; location?: { start?: { offset?: number } }; message: string };
    const issue = {
      offset: e.location?.start?.offset ?? 0,
      message: `Syntax error: ${e.rawMessage ?? e.message}`,
    };
    return { stage: 'compilation', text: formatIssue(opts.source, issue) };
  }
  const checked = checkExpr(parsed, {
    self: opts.self,
    oldSelf: opts.oldSelf,
    knownFunction: (name) => env.funcs.find(name) !== undefined,
  });
  if (checked.issues.length > 0)
    return { stage: 'compilation', text: checked.issues.map((i) => formatIssue(opts.source, i)).join('\n') };
  if (checked.programError !== undefined) return { stage: 'instantiation', text: checked.programError };
  return { program: cel.plan(env, parsed), type: checked.type, usesOldSelf: checked.usesOldSelf };
}

function compileMessageExpression(
  w: Walk,
  opts: { rule: ValidationRule; path: FieldPath; self: CelT; oldSelf: CelT },
): Program | undefined {
  const source = (opts.rule.messageExpression ?? '').trim();
  if (source === '') return undefined;
  const at = opts.path.child('messageExpression');
  const out = compileExpr(w, { source, self: opts.self, oldSelf: opts.oldSelf });
  if ('stage' in out)
    w.errs.push(ruleInvalid(at, opts.rule, `messageExpression ${out.stage} failed: ${out.text}`));
  else if (!mayBe(out.type, 'string'))
    w.errs.push(ruleInvalid(at, opts.rule, 'messageExpression must evaluate to a string'));
  else return out.program;
  return undefined;
}

function checkFieldPath(
  w: Walk,
  opts: { rule: ValidationRule; path: FieldPath; schema: JSONSchemaProps },
): string {
  const raw = opts.rule.fieldPath ?? '';
  if (raw === '') return '';
  const at = opts.path.child('fieldPath');
  if (raw.trim() === '') w.errs.push(FieldError.invalid(at, raw, 'fieldPath must be non-empty if specified'));
  else if (/\n/.test(raw)) w.errs.push(FieldError.invalid(at, raw, 'fieldPath must not contain line breaks'));
  const normalized = validFieldPath(raw, opts.schema);
  if (normalized === undefined) w.errs.push(FieldError.invalid(at, raw, 'fieldPath must be a valid path'));
  return normalized ?? '';
}

function compileRule(
  w: Walk,
  opts: { rule: ValidationRule; path: FieldPath; schema: JSONSchemaProps },
): CompiledRule | undefined {
  const { rule, path, schema } = opts;
  const source = ((rule.rule as string | undefined) ?? '').trim();
  if (source === '') return undefined;
  const self = schemaType(schema);
  const oldSelf: CelT = rule.optionalOldSelf === true ? { kind: 'dyn' } : self;
  const out = compileExpr(w, { source, self, oldSelf });
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
  const messageProgram = compileMessageExpression(w, { rule, path, self, oldSelf });
  const fieldPath = checkFieldPath(w, { rule, path, schema });
  return {
    rule,
    program: out.program,
    usesOldSelf: out.usesOldSelf,
    fieldPath,
    ...(messageProgram === undefined ? {} : { messageProgram }),
  };
}

/** The rule tree of a schema node, or undefined when neither it nor anything below has rules. */
function compileNode(w: Walk, opts: { schema: JSONSchemaProps; path: FieldPath }): RuleNode | undefined {
  const { schema, path } = opts;
  const rules: CompiledRule[] = [];
  (schema['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const compiled = compileRule(w, { rule, path: path.child('x-kubernetes-validations').index(i), schema });
    if (compiled !== undefined) rules.push(compiled);
  });
  const properties = new Map<string, RuleNode>();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const node = compileNode(w, { schema: prop, path: path.child('properties').key(name) });
    if (node !== undefined) properties.set(name, node);
  }
  const additional = schema.additionalProperties;
  const additionalProperties =
    typeof additional === 'object'
      ? compileNode(w, { schema: additional, path: path.child('additionalProperties') })
      : undefined;
  const itemSchema = schema.items;
  let items: RuleNode | undefined;
  if (itemSchema !== undefined && !Array.isArray(itemSchema)) {
    const correlatable = schema['x-kubernetes-list-type'] === 'map';
    const inner = correlatable ? w : { ...w, uncorrelatable: w.uncorrelatable ?? path };
    items = compileNode(inner, { schema: itemSchema, path: path.child('items') });
  }
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

/** The synchronous compile with an already loaded library; errors are under `path`. */
export function compileRulesWith(
  lib: CelLibrary,
  opts: { schema: JSONSchemaProps; path: FieldPath },
): { errors: ErrorList; validator: CustomResourceRuleValidator | undefined } {
  const w: Walk = { lib, errs: [], uncorrelatable: undefined };
  const root = compileNode(w, opts);
  const validator = root === undefined ? undefined : new CustomResourceRuleValidator(lib, root);
  return { errors: w.errs, validator };
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
export function validateSchemaRules(schema: JSONSchemaProps, path: FieldPath): ErrorList {
  if (!hasRules(schema)) return [];
  const lib = loadedCel();
  if (lib === undefined)
    return [FieldError.internal(path.child('x-kubernetes-validations'), 'the CEL library is not loaded')];
  return compileRulesWith(lib, { schema, path }).errors;
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
