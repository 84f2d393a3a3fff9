// The CEL half of admissionregistration validation (pkg/apis/admissionregistration/validation/
// validation.go: validateVariable, validateValidationExpression, validateMessageExpression,
// validateMatchConditionsExpression, validateAuditAnnotation): every expression of a policy must
// compile in the policy's environment, `object` and `params` dynamic, each variable seeing the ones
// before it; a webhook's matchConditions in the webhooks' (no params, no variables). An expression
// that does not is Invalid with kube's `compilation failed: …` detail. The stores load the CEL
// library before they validate (storage.ts).
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/v1/policy.js';
import type {
  MutatingWebhookConfiguration,
  ValidatingWebhookConfiguration,
} from '../../api/admissionregistration/v1/webhook.js';
import type { KubeObject } from '../../api/meta.js';
import { FieldError, FieldPath, type ErrorList } from '../../machinery/validation/index.js';
import type { CelT } from '../apiextensions/customresource/cel/check.js';
import { loadedCel, type CelLibrary } from '../apiextensions/customresource/cel/load.js';
import { compileCel, policyScope, type ExpectedType } from './policy-cel.js';

const dyn: CelT = { kind: 'dyn' };
const types = { object: dyn, params: dyn, request: dyn, namespaceObject: dyn };

function check(
  lib: CelLibrary,
  at: FieldPath,
  opts: { source: string; scope: ReadonlyMap<string, CelT>; returns: ExpectedType },
): FieldError[] {
  // The structural validation reports it as required (a body may leave it out altogether).
  if (((opts.source as string | undefined) ?? '').trim() === '') return [];
  const out = compileCel(lib, opts);
  return out.ok ? [] : [FieldError.invalid(at, opts.source, out.error)];
}

/** The compile errors of a policy's expressions; none when the CEL library is not loaded. */
export function validatePolicyExpressions(policy: ValidatingAdmissionPolicy): ErrorList {
  const lib = loadedCel();
  if (lib === undefined) return [];
  const spec = policy.spec ?? {};
  const path = FieldPath.of('spec');
  const errs: ErrorList = [];
  const names: string[] = [];
  (spec.variables ?? []).forEach((v, i) => {
    const scope = policyScope(policy, types, names);
    errs.push(
      ...check(lib, path.child('variables').index(i).child('expression'), {
        source: v.expression,
        scope,
        returns: 'dyn',
      }),
    );
    names.push(v.name);
  });
  const scope = policyScope(policy, types, names);
  (spec.validations ?? []).forEach((v, i) => {
    const at = path.child('validations').index(i);
    errs.push(...check(lib, at.child('expression'), { source: v.expression, scope, returns: 'bool' }));
    const message = v.messageExpression ?? '';
    if (message.trim() !== '')
      errs.push(...check(lib, at.child('messageExpression'), { source: message, scope, returns: 'string' }));
  });
  (spec.matchConditions ?? []).forEach((c, i) => {
    errs.push(
      ...check(lib, path.child('matchConditions').index(i).child('expression'), {
        source: c.expression,
        scope,
        returns: 'bool',
      }),
    );
  });
  (spec.auditAnnotations ?? []).forEach((a, i) => {
    errs.push(
      ...check(lib, path.child('auditAnnotations').index(i).child('valueExpression'), {
        source: a.valueExpression,
        scope,
        returns: 'dyn',
      }),
    );
  });
  return errs;
}

/** A webhook's matchConditions see the request's objects, the request and the authorizer. */
const webhookScope: ReadonlyMap<string, CelT> = new Map([
  ['object', dyn],
  ['oldObject', dyn],
  ['request', dyn],
  ['namespaceObject', dyn],
  ['authorizer', dyn],
]);

/** Whether validating `config` (a body, not yet validated) compiles CEL: some webhook has matchConditions. */
export function hasMatchConditions(config: KubeObject): boolean {
  const hooks: unknown = (config as { webhooks?: unknown }).webhooks;
  return (
    Array.isArray(hooks) &&
    hooks.some((hook: unknown) => {
      const conditions: unknown = (hook as { matchConditions?: unknown } | null)?.matchConditions;
      return Array.isArray(conditions) && conditions.length > 0;
    })
  );
}

/** The compile errors of a webhook configuration's matchConditions; none when CEL is not loaded. */
export function validateWebhookExpressions(
  config: ValidatingWebhookConfiguration | MutatingWebhookConfiguration,
): ErrorList {
  const lib = loadedCel();
  if (lib === undefined) return [];
  const errs: ErrorList = [];
  (config.webhooks ?? []).forEach((hook, i) => {
    (hook.matchConditions ?? []).forEach((c, j) => {
      const at = FieldPath.of('webhooks').index(i).child('matchConditions').index(j).child('expression');
      errs.push(...check(lib, at, { source: c.expression, scope: webhookScope, returns: 'bool' }));
    });
  });
  return errs;
}
