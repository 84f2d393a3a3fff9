// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding validation
// (pkg/apis/admissionregistration/validation/validation.go) and v1 defaults. The structure is
// checked here; a policy's CEL expressions are compiled by policy-expressions.ts.
import type {
  MatchResources,
  NamedRuleWithOperations,
  ParamKind,
  ParamRef,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyStatus,
  Validation,
} from '../../api/admissionregistration/v1/policy.js';
import { validateLabelSelector } from '../../machinery/labels/validate-label-selector.js';
import {
  FieldError,
  FieldPath,
  isDNS1035Label,
  isDNS1123Subdomain,
  isQualifiedName,
  nameIsDNSSubdomain,
  validatePathSegmentName,
  type ErrorList,
} from '../../machinery/validation/index.js';
import { defaultRule, validateMatchConditions, validateRuleWithOperations } from './rules.js';
import { supportedFailurePolicies, supportedMatchPolicies } from './webhook-validation.js';

const supportedReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const validationActions = ['Audit', 'Deny', 'Warn'];
const maxAuditAnnotations = 20;
const maxValueExpressionLength = 5 * 1024;
const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const celReserved = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

/** parseGroupVersion. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return `unexpected GroupVersion string: ${gv}`;
}

/** validateParamKind. */
function validateParamKind(pk: ParamKind, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const apiVersion = pk.apiVersion ?? '';
  if (apiVersion === '') errs.push(FieldError.required(path.child('apiVersion'), ''));
  else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') errs.push(FieldError.invalid(path.child('apiVersion'), apiVersion, gv));
    else {
      const groupErrs = gv.group === '' ? [] : isDNS1123Subdomain(gv.group);
      if (groupErrs.length > 0)
        errs.push(FieldError.invalid(path.child('apiVersion'), gv.group, groupErrs.join(',')));
      if (gv.version === '')
        errs.push(FieldError.invalid(path.child('apiVersion'), apiVersion, 'version must be specified'));
      else {
        const versionErrs = isDNS1035Label(gv.version);
        if (versionErrs.length > 0)
          errs.push(FieldError.invalid(path.child('apiVersion'), gv.version, versionErrs.join(',')));
      }
    }
  }
  const kind = pk.kind ?? '';
  if (kind === '') errs.push(FieldError.required(path.child('kind'), ''));
  else {
    const kindErrs = isDNS1035Label(kind.toLowerCase());
    if (kindErrs.length > 0)
      errs.push(
        FieldError.invalid(
          path.child('kind'),
          kind,
          `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`,
        ),
      );
  }
  return errs;
}

/** validateNamedRuleWithOperations. */
function validateNamedRule(rule: NamedRuleWithOperations, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    const at = path.child('resourceNames').index(i);
    for (const msg of validatePathSegmentName(name, false)) errs.push(FieldError.invalid(at, name, msg));
    if (names.has(name)) errs.push(FieldError.duplicate(at, name));
    else names.add(name);
  });
  return [...errs, ...validateRuleWithOperations(rule, path)];
}

/** validateMatchResources: policy match constraints and binding match resources. */
function validateMatchResources(mr: MatchResources | undefined, path: FieldPath): ErrorList {
  if (mr === undefined) return [];
  const errs: ErrorList = [];
  if (mr.matchPolicy === undefined) errs.push(FieldError.required(path.child('matchPolicy'), ''));
  else if (!supportedMatchPolicies.includes(mr.matchPolicy))
    errs.push(FieldError.notSupported(path.child('matchPolicy'), mr.matchPolicy, supportedMatchPolicies));
  if (mr.namespaceSelector === undefined) errs.push(FieldError.required(path.child('namespaceSelector'), ''));
  else errs.push(...validateLabelSelector(mr.namespaceSelector, path.child('namespaceSelector')));
  if (mr.objectSelector === undefined) errs.push(FieldError.required(path.child('objectSelector'), ''));
  else errs.push(...validateLabelSelector(mr.objectSelector, path.child('objectSelector')));
  (mr.resourceRules ?? []).forEach((r, i) => {
    errs.push(...validateNamedRule(r, path.child('resourceRules').index(i)));
  });
  (mr.excludeResourceRules ?? []).forEach((r, i) => {
    errs.push(...validateNamedRule(r, path.child('excludeResourceRules').index(i)));
  });
  return errs;
}

/** validateValidation, without compiling the expressions. */
function validateValidation(v: Validation, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const expression = (v.expression as string | undefined) ?? '';
  if (expression.trim() === '')
    errs.push(FieldError.required(path.child('expression'), 'expression is not specified'));
  const messageExpression = v.messageExpression ?? '';
  if (messageExpression !== '' && messageExpression.trim() === '')
    errs.push(
      FieldError.invalid(
        path.child('messageExpression'),
        messageExpression,
        'must be non-empty if specified',
      ),
    );
  const message = v.message ?? '';
  if (message !== '' && message.trim() === '')
    errs.push(FieldError.invalid(path.child('message'), message, 'message must be non-empty if specified'));
  else if (hasNewlines(message.trim()))
    errs.push(FieldError.invalid(path.child('message'), message, 'message must not contain line breaks'));
  if (v.reason !== undefined && !supportedReasons.includes(v.reason))
    errs.push(FieldError.notSupported(path.child('reason'), v.reason, supportedReasons));
  return errs;
}

/** validateValidatingAdmissionPolicySpec, without metadata. */
export function validatePolicy(policy: ValidatingAdmissionPolicy): ErrorList {
  const spec = policy.spec ?? {};
  const path = FieldPath.of('spec');
  const errs: ErrorList = [];
  if (spec.failurePolicy === undefined) errs.push(FieldError.required(path.child('failurePolicy'), ''));
  else if (!supportedFailurePolicies.includes(spec.failurePolicy))
    errs.push(
      FieldError.notSupported(path.child('failurePolicy'), spec.failurePolicy, supportedFailurePolicies),
    );
  if (spec.paramKind !== undefined) errs.push(...validateParamKind(spec.paramKind, path.child('paramKind')));
  if (spec.matchConstraints === undefined) errs.push(FieldError.required(path.child('matchConstraints'), ''));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, path.child('matchConstraints')));
    if ((spec.matchConstraints.resourceRules ?? []).length === 0)
      errs.push(FieldError.required(path.child('matchConstraints', 'resourceRules'), ''));
  }
  errs.push(...validateMatchConditions(spec.matchConditions ?? [], path.child('matchConditions')));
  (spec.variables ?? []).forEach((v, i) => {
    const at = path.child('variables').index(i);
    const name = (v.name as string | undefined) ?? '';
    if (name.trim() === '') errs.push(FieldError.required(at.child('name'), 'name is not specified'));
    else if (!celIdentifier.test(name) || celReserved.has(name))
      errs.push(FieldError.invalid(at.child('name'), name, 'name is not a valid CEL identifier'));
    if (((v.expression as string | undefined) ?? '').trim() === '')
      errs.push(FieldError.required(at.child('expression'), 'expression is not specified'));
  });
  const validations = spec.validations ?? [];
  const annotations = spec.auditAnnotations ?? [];
  if (validations.length === 0 && annotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    errs.push(
      FieldError.required(path.child('validations'), detail),
      FieldError.required(path.child('auditAnnotations'), detail),
    );
    return errs;
  }
  validations.forEach((v, i) => {
    errs.push(...validateValidation(v, path.child('validations').index(i)));
  });
  if (annotations.length > maxAuditAnnotations)
    errs.push(
      FieldError.invalid(
        path.child('auditAnnotations'),
        annotations,
        `must not have more than ${maxAuditAnnotations} auditAnnotations`,
      ),
    );
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const at = path.child('auditAnnotations').index(i);
    const key = (a.key as string | undefined) ?? '';
    const name = policy.metadata?.name ?? '';
    if (name !== '')
      for (const msg of isQualifiedName(`${name}/${key}`))
        errs.push(FieldError.invalid(at.child('key'), `${name}/${key}`, msg));
    else errs.push(FieldError.invalid(at.child('key'), key, 'requires metadata.name be non-empty'));
    const value = ((a.valueExpression as string | undefined) ?? '').trim();
    if (value === '')
      errs.push(FieldError.required(at.child('valueExpression'), 'valueExpression is not specified'));
    else if (value.length > maxValueExpressionLength)
      errs.push(
        FieldError.required(
          at.child('valueExpression'),
          `must not exceed ${maxValueExpressionLength} bytes in length`,
        ),
      );
    if (keys.has(key)) errs.push(FieldError.duplicate(at.child('key'), key));
    keys.add(key);
  });
  return errs;
}

/** validateValidatingAdmissionPolicyStatus (type checking warnings and conditions). */
export function validatePolicyStatus(status: ValidatingAdmissionPolicyStatus | undefined): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.of('status', 'typeChecking', 'expressionWarnings');
  (status?.typeChecking?.expressionWarnings ?? []).forEach((w, i) => {
    if (((w.warning as string | undefined) ?? '') === '')
      errs.push(FieldError.required(path.index(i).child('warning'), ''));
    if (((w.fieldRef as string | undefined) ?? '').trim() === '')
      errs.push(FieldError.required(path.index(i).child('fieldRef'), ''));
  });
  return errs;
}

/** validateParamRef. */
function validateParamRef(pr: ParamRef | undefined, path: FieldPath): ErrorList {
  if (pr === undefined) return [];
  const errs: ErrorList = [];
  const name = pr.name ?? '';
  if (name !== '') {
    for (const msg of validatePathSegmentName(name, false))
      errs.push(FieldError.invalid(path.child('name'), name, msg));
    if (pr.selector !== undefined)
      errs.push(FieldError.forbidden(path.child('name'), 'name and selector are mutually exclusive'));
  }
  if (pr.selector !== undefined) {
    errs.push(...validateLabelSelector(pr.selector, path.child('selector')));
    if (name !== '')
      errs.push(FieldError.forbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name === '' && pr.selector === undefined)
    errs.push(FieldError.required(path, 'one of name or selector must be specified'));
  const action = pr.parameterNotFoundAction ?? '';
  if (action === '') errs.push(FieldError.required(path.child('parameterNotFoundAction'), ''));
  else if (action !== 'Deny' && action !== 'Allow')
    errs.push(FieldError.notSupported(path.child('parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

/** validateValidatingAdmissionPolicyBindingSpec (kube spells the match path `matchResouces`). */
export function validateBinding(binding: ValidatingAdmissionPolicyBinding): ErrorList {
  const spec = binding.spec ?? {};
  const path = FieldPath.of('spec');
  const errs: ErrorList = [];
  const policyName = spec.policyName ?? '';
  if (policyName === '') errs.push(FieldError.required(path.child('policyName'), ''));
  else
    for (const msg of nameIsDNSSubdomain(policyName, false))
      errs.push(FieldError.invalid(path.child('policyName'), policyName, msg));
  errs.push(
    ...validateParamRef(spec.paramRef, path.child('paramRef')),
    ...validateMatchResources(spec.matchResources, path.child('matchResouces')),
  );
  const actionsPath = path.child('validationActions');
  const actions = spec.validationActions ?? [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!validationActions.includes(a))
      errs.push(FieldError.notSupported(actionsPath.index(i), a, validationActions));
    if (seen.has(a)) errs.push(FieldError.duplicate(actionsPath.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errs.push(
      FieldError.invalid(
        actionsPath,
        actions,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  if (seen.size === 0)
    errs.push(FieldError.required(actionsPath, 'at least one validation action is required'));
  return errs;
}

function defaultMatchResources(mr: MatchResources | undefined): void {
  if (mr === undefined) return;
  mr.matchPolicy ??= 'Equivalent';
  mr.namespaceSelector ??= {};
  mr.objectSelector ??= {};
  for (const r of [...(mr.resourceRules ?? []), ...(mr.excludeResourceRules ?? [])]) defaultRule(r);
}

/** v1 defaults: failurePolicy Fail; match constraints Equivalent with empty selectors and scope "*". */
export function defaultPolicy(policy: ValidatingAdmissionPolicy): void {
  const spec = (policy.spec ??= {});
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

export function defaultBinding(binding: ValidatingAdmissionPolicyBinding): void {
  defaultMatchResources(binding.spec?.matchResources);
}
