// pkg/registry/authorization/util/helpers.go: an access review's spec as the attributes the
// authorizer decides on (ResourceAttributesFrom with AuthorizeWithSelectors, on in 1.33), and the
// evaluationError it reports (BuildEvaluationError).
import type { ResourceAttributes, SubjectAccessReviewSpec } from '../../api/authorization/v1/reviews.js';
import type { LabelSelectorRequirement } from '../../api/meta/v1/label-selector.js';
import type { FieldRequirement } from '../../machinery/fields/index.js';
import { newRequirement, type Operator, type Requirement } from '../../machinery/labels/index.js';
import type { AuthorizationAttributes, SelectorRequirements } from '../rest/authorizer.js';
import { parseRawFieldSelector, parseRawLabelSelector } from '../rest/authorizer-selectors.js';
import type { UserInfo } from '../rest/context.js';

/** Go's aggregate of errors: one message alone, several in brackets. */
const aggregate = (errs: readonly string[]): string | undefined =>
  errs.length === 0 ? undefined : errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;

function parsed<R>(requirements: readonly R[], errs: readonly string[]): SelectorRequirements<R> {
  const error = aggregate(errs);
  return error === undefined ? { requirements } : { requirements, error };
}

/** fieldSelectorAsSelector: In → `=`, NotIn → `!=`, one value each; the rest dropped with an error. */
function fieldSelectorAsSelector(
  reqs: readonly LabelSelectorRequirement[],
): SelectorRequirements<FieldRequirement> {
  const out: FieldRequirement[] = [];
  const errs: string[] = [];
  for (const r of reqs) {
    const values = r.values ?? [];
    if (values.length > 1) {
      errs.push('fieldSelectors do not yet support multiple values');
      continue;
    }
    const value = values[0];
    switch (r.operator) {
      case 'In':
        if (value === undefined) errs.push('fieldSelectors in must have one value');
        else out.push({ field: r.key, operator: '=', value });
        break;
      case 'NotIn':
        if (value === undefined) errs.push('fieldSelectors not in must have one value');
        else out.push({ field: r.key, operator: '!=', value });
        break;
      case 'Exists':
      case 'DoesNotExist':
        errs.push(`fieldSelectors do not yet support ${r.operator}`);
        break;
      default:
        errs.push(`${JSON.stringify(r.operator)} is not a valid field selector operator`);
    }
  }
  return parsed(out, errs);
}

const labelOperators: Readonly<Record<string, Operator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/** labelSelectorAsSelector: each requirement through labels.NewRequirement; bad ones dropped with an error. */
function labelSelectorAsSelector(
  reqs: readonly LabelSelectorRequirement[],
): SelectorRequirements<Requirement> {
  const out: Requirement[] = [];
  const errs: string[] = [];
  for (const r of reqs) {
    const operator = Object.hasOwn(labelOperators, r.operator) ? labelOperators[r.operator] : undefined;
    if (operator === undefined) {
      errs.push(`${JSON.stringify(r.operator)} is not a valid label selector operator`);
      continue;
    }
    const values = r.values ?? [];
    const made = newRequirement({ key: r.key, operator, values: values.length === 0 ? null : values });
    if (made.ok) out.push(made.requirement);
    else errs.push(made.error.error());
  }
  return parsed(out, errs);
}

type Selector = ResourceAttributes['fieldSelector'];

/** The selector as requirements: the raw text parsed, or the requirements converted (these win). */
function selectorFrom<R>(
  selector: Selector | null,
  convert: {
    raw: (s: string) => SelectorRequirements<R>;
    requirements: (r: readonly LabelSelectorRequirement[]) => SelectorRequirements<R>;
  },
): SelectorRequirements<R> | undefined {
  if (selector === null || selector === undefined) return undefined;
  const reqs = selector.requirements ?? [];
  if (reqs.length > 0) return convert.requirements(reqs);
  const raw = selector.rawSelector ?? '';
  return raw === '' ? undefined : convert.raw(raw);
}

/** ResourceAttributesFrom: an empty version asks for all versions. */
export function resourceAttributesFrom(user: UserInfo, r: ResourceAttributes): AuthorizationAttributes {
  const fields = selectorFrom(r.fieldSelector ?? null, {
    raw: parseRawFieldSelector,
    requirements: fieldSelectorAsSelector,
  });
  const labels = selectorFrom(r.labelSelector ?? null, {
    raw: parseRawLabelSelector,
    requirements: labelSelectorAsSelector,
  });
  const version = r.version ?? '';
  return {
    user,
    verb: r.verb ?? '',
    resourceRequest: true,
    namespace: r.namespace ?? '',
    apiGroup: r.group ?? '',
    apiVersion: version === '' ? '*' : version,
    resource: r.resource ?? '',
    subresource: r.subresource ?? '',
    name: r.name ?? '',
    ...(fields === undefined ? {} : { fieldRequirements: fields }),
    ...(labels === undefined ? {} : { labelRequirements: labels }),
  };
}

/** AuthorizationAttributesFrom for a spec's resource or non-resource attributes. */
export function attributesFrom(user: UserInfo, spec: SubjectAccessReviewSpec): AuthorizationAttributes {
  const r = spec.resourceAttributes ?? undefined;
  if (r !== undefined) return resourceAttributesFrom(user, r);
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', resourceRequest: false, path: n.path ?? '' };
}

function selectorError(which: string, s: SelectorRequirements<unknown> | undefined): string[] {
  if (s?.error === undefined) return [];
  const how = s.requirements.length > 0 ? 'partially ignored' : 'ignored';
  return [`spec.resourceAttributes.${which} ${how} due to parse error`];
}

/** BuildEvaluationError: the authorizer's error and the selectors' parse errors, joined by "; ". */
export function buildEvaluationError(
  evaluationError: string | undefined,
  attrs: AuthorizationAttributes,
): string {
  return [
    ...(evaluationError === undefined ? [] : [evaluationError]),
    ...selectorError('fieldSelector', attrs.fieldRequirements),
    ...selectorError('labelSelector', attrs.labelRequirements),
  ].join('; ');
}
