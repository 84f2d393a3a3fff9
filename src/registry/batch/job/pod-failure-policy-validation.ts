// spec.podFailurePolicy of a Job or a CronJob's job template (validatePodFailurePolicy and its rule
// helpers in pkg/apis/batch/validation/validation.go).
import type {
  JobSpec,
  PodFailurePolicyOnExitCodesRequirement,
  PodFailurePolicyOnPodConditionsPattern,
  PodFailurePolicyRule,
} from '../../../api/batch/v1/job.js';
import {
  FieldError,
  goQuote,
  isQualifiedName,
  omitValue,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';

const maxPodFailurePolicyRules = 20;
const maxOnExitCodesValues = 255;
const maxOnPodConditionsPatterns = 20;

// Sorted, as kube lists its sets.
const supportedActions = ['Count', 'FailIndex', 'FailJob', 'Ignore'] as const;
const supportedOperators = ['In', 'NotIn'] as const;
const supportedStatuses = ['False', 'True', 'Unknown'] as const;

/** Go's %q of a []string: `["a" "b"]`. */
function quotedList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

const has = (set: readonly string[], value: string): boolean => set.includes(value);

function validateAction(spec: JobSpec, action: string | undefined, path: FieldPath): ErrorList {
  if (action === undefined || action === '')
    return [FieldError.required(path, `valid values: ${quotedList(supportedActions)}`)];
  if (action === 'FailIndex')
    return spec.backoffLimitPerIndex === undefined
      ? [FieldError.invalid(path, action, 'requires the backoffLimitPerIndex to be set')]
      : [];
  return has(supportedActions, action) ? [] : [FieldError.notSupported(path, action, supportedActions)];
}

/** validatePodFailurePolicyRuleOnExitCodes. */
function validateOnExitCodes(
  onExitCodes: PodFailurePolicyOnExitCodesRequirement,
  path: FieldPath,
  containerNames: ReadonlySet<string>,
): ErrorList {
  const errs: ErrorList = [];
  const operator = onExitCodes.operator as string | undefined;
  const operatorPath = path.child('operator');
  if (operator === undefined || operator === '')
    errs.push(FieldError.required(operatorPath, `valid values: ${quotedList(supportedOperators)}`));
  else if (!has(supportedOperators, operator))
    errs.push(FieldError.notSupported(operatorPath, operator, supportedOperators));
  const containerName = onExitCodes.containerName;
  if (containerName !== undefined && !containerNames.has(containerName))
    errs.push(
      FieldError.invalid(
        path.child('containerName'),
        containerName,
        'must be one of the container or initContainer names in the pod template',
      ),
    );
  const valuesPath = path.child('values');
  // A missing list renders as null, an empty one as [], as Go marshals a nil or an empty slice.
  const values = (onExitCodes.values as number[] | undefined) ?? [];
  const shown = (onExitCodes.values as number[] | undefined) ?? null;
  if (values.length === 0) errs.push(FieldError.invalid(valuesPath, shown, 'at least one value is required'));
  else if (values.length > maxOnExitCodesValues)
    errs.push(FieldError.tooMany(valuesPath, values.length, maxOnExitCodesValues));
  const seen = new Set<number>();
  let ordered = true;
  for (const [j, value] of values.entries()) {
    const valuePath = valuesPath.index(j);
    if (operator === 'In' && value === 0)
      errs.push(FieldError.invalid(valuePath, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errs.push(FieldError.duplicate(valuePath, value));
    else seen.add(value);
    const previous = values[j - 1];
    if (previous !== undefined && previous > value) ordered = false;
  }
  if (!ordered) errs.push(FieldError.invalid(valuesPath, values, 'must be ordered'));
  return errs;
}

/** validatePodFailurePolicyRuleOnPodConditions. */
function validateOnPodConditions(
  patterns: readonly PodFailurePolicyOnPodConditionsPattern[],
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  if (patterns.length > maxOnPodConditionsPatterns)
    errs.push(FieldError.tooMany(path, patterns.length, maxOnPodConditionsPatterns));
  patterns.forEach((pattern, j) => {
    const patternPath = path.index(j);
    const type = (pattern.type as string | undefined) ?? '';
    errs.push(
      ...isQualifiedName(type).map((msg) => FieldError.invalid(patternPath.child('type'), type, msg)),
    );
    const status = pattern.status ?? '';
    const statusPath = patternPath.child('status');
    if (status === '')
      errs.push(FieldError.required(statusPath, `valid values: ${quotedList(supportedStatuses)}`));
    else if (!has(supportedStatuses, status))
      errs.push(FieldError.notSupported(statusPath, status, supportedStatuses));
  });
  return errs;
}

/** What every rule is checked against: the spec, and the names of the template's containers. */
interface RuleContext {
  readonly spec: JobSpec;
  readonly containerNames: ReadonlySet<string>;
}

/** validatePodFailurePolicyRule. */
function validateRule(rule: PodFailurePolicyRule, path: FieldPath, ctx: RuleContext): ErrorList {
  const { spec, containerNames } = ctx;
  const errs = validateAction(spec, rule.action, path.child('action'));
  const onExitCodes = rule.onExitCodes;
  const patterns = rule.onPodConditions ?? [];
  if (onExitCodes !== undefined)
    errs.push(...validateOnExitCodes(onExitCodes, path.child('onExitCodes'), containerNames));
  if (patterns.length > 0) errs.push(...validateOnPodConditions(patterns, path.child('onPodConditions')));
  if (onExitCodes !== undefined && patterns.length > 0)
    errs.push(
      FieldError.invalid(path, omitValue, 'specifying both OnExitCodes and OnPodConditions is not supported'),
    );
  if (onExitCodes === undefined && patterns.length === 0)
    errs.push(
      FieldError.invalid(path, omitValue, 'specifying one of OnExitCodes and OnPodConditions is required'),
    );
  return errs;
}

/** validatePodFailurePolicy: at most 20 rules, each checked against the template's containers. */
export function validatePodFailurePolicy(spec: JobSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const rules = spec.podFailurePolicy?.rules ?? [];
  const rulesPath = path.child('rules');
  if (rules.length > maxPodFailurePolicyRules)
    errs.push(FieldError.tooMany(rulesPath, rules.length, maxPodFailurePolicyRules));
  const podSpec = spec.template?.spec;
  const containers = [...(podSpec?.containers ?? []), ...(podSpec?.initContainers ?? [])];
  const ctx: RuleContext = { spec, containerNames: new Set(containers.map((c) => c.name)) };
  rules.forEach((rule, i) => {
    errs.push(...validateRule(rule, rulesPath.index(i), ctx));
  });
  return errs;
}
