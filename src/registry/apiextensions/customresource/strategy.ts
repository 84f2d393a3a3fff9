// Custom resource strategies (apiextensions-apiserver/pkg/registry/customresource/strategy.go and
// status_strategy.go): scope from the CRD, status kept out of the main resource when the status
// subresource is on, metadata checked as kube checks it, and the object validated against the
// served version's OpenAPI schema and its CEL rules (x-kubernetes-validations, cel/). Updates
// (main resource and /status) ratchet as kube 1.33's do (CRDValidationRatcheting): schema errors and
// rule failures at parts of the object the update left unchanged are not reported (a rule's become
// warnings), so a tightened schema does not block updates that leave the now-invalid fields alone.
import type { KubeObject } from '../../../api/meta.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateObjectMeta,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import type { CreateStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateObjectMetaUpdate } from '../../generic/validate-meta-update.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { validateCustomResourceObject } from './schema/validate-object.js';
import type { CustomResourceRuleValidator, RuleRatchet } from './cel/validator.js';
import { Correlation } from './schema/correlation.js';
import type { RequestContext } from '../../rest/context.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

export interface CustomResourceStrategyOptions {
  readonly namespaced: boolean;
  /** `group/version` and kind of the stored objects. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly schema: JSONSchemaProps;
  /** The version has the status subresource: the main resource ignores status changes. */
  readonly statusSubresource: boolean;
  /** The compiled x-kubernetes-validations of the schema, when it has any. */
  readonly ruleValidator?: CustomResourceRuleValidator;
}

export type CustomResourceStrategy = CreateStrategy & UpdateStrategy;

function validateTypeMeta(obj: KubeObject, o: CustomResourceStrategyOptions): ErrorList {
  const errs: ErrorList = [];
  if (obj.apiVersion !== o.apiVersion)
    errs.push(
      FieldError.invalid(FieldPath.of('apiVersion'), obj.apiVersion ?? '', `must be ${o.apiVersion}`),
    );
  if (obj.kind !== o.kind)
    errs.push(FieldError.invalid(FieldPath.of('kind'), obj.kind ?? '', `must be ${o.kind}`));
  return errs;
}

const blockingErrors = new Set<FieldError['type']>([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);
const rulesNotChecked =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

interface Target {
  readonly obj: KubeObject;
  readonly old: KubeObject | undefined;
  /** Where ratcheted rule failures are warned of; undefined drops them. */
  readonly warn: ((message: string) => void) | undefined;
}

function validateObject(t: Target, o: CustomResourceStrategyOptions): ErrorList {
  const { obj } = t;
  const update = t.old === undefined ? undefined : new Correlation(obj, t.old, o.schema);
  return withRules(
    [
      ...validateObjectMeta(obj.metadata ?? {}, {
        requiresNamespace: o.namespaced,
        validateName: nameIsDNSSubdomain,
      }),
      ...validateTypeMeta(obj, o),
      ...validateCustomResourceObject(obj, o.schema, update),
    ],
    { t, o, update },
  );
}

/**
 * An object of a served version that is converted before it is stored (conversion Webhook) against
 * its version's schema and rules, as kube validates the request's version.
 */
export function validateServedObject(
  obj: KubeObject,
  o: CustomResourceStrategyOptions,
  old?: KubeObject,
): ErrorList {
  const update = old === undefined ? undefined : new Correlation(obj, old, o.schema);
  return withRules([...validateCustomResourceObject(obj, o.schema, update)], {
    t: { obj, old, warn: undefined },
    o,
    update,
  });
}

// The schema errors here are the ratcheted ones, so only errors that remain block the rules, as in
// kube's strategies (hasBlockingErr runs after ValidateCustomResourceUpdate).
function withRules(
  errs: ErrorList,
  c: { t: Target; o: CustomResourceStrategyOptions; update: Correlation | undefined },
): ErrorList {
  const { t, o, update } = c;
  if (o.ruleValidator === undefined) return errs;
  // kube's hasBlockingErr: rules do not run on an object of the wrong shape.
  if (errs.some((e) => blockingErrors.has(e.type)))
    errs.push(FieldError.invalid(undefined, 'null', rulesNotChecked));
  else {
    const ratchet: RuleRatchet | undefined =
      update === undefined ? undefined : { correlation: update, warn: t.warn ?? (() => undefined) };
    errs.push(...o.ruleValidator.validate(t.obj, t.old, ratchet));
  }
  return errs;
}

const warnTo =
  (ctx: RequestContext) =>
  (message: string): void => {
    ctx.addWarning(message);
  };

export function customResourceStrategy(o: CustomResourceStrategyOptions): CustomResourceStrategy {
  return {
    namespaceScoped: o.namespaced,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForCreate: (_ctx, obj) => {
      if (o.statusSubresource) delete obj['status'];
    },
    validate: (_ctx, obj) => validateObject({ obj, old: undefined, warn: undefined }, o),
    prepareForUpdate: (_ctx, obj, old) => {
      if (!o.statusSubresource) return;
      if (old['status'] === undefined) delete obj['status'];
      else obj['status'] = old['status'];
    },
    validateUpdate: (ctx, obj, old) => [
      ...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}),
      ...validateObject({ obj, old, warn: warnTo(ctx) }, o),
    ],
  };
}

/** `<resource>/status`: everything but status (and managedFields) stays as stored. */
export function customResourceStatusStrategy(o: CustomResourceStrategyOptions): UpdateStrategy {
  return {
    ...customResourceStrategy(o),
    prepareForUpdate: (_ctx, obj, old) => {
      const status = obj['status'];
      const managedFields = obj.metadata?.managedFields;
      for (const key of Object.keys(obj)) Reflect.deleteProperty(obj, key);
      Object.assign(obj, deepCopyJSON(old));
      const meta = (obj.metadata ??= {});
      if (managedFields === undefined) delete meta.managedFields;
      else meta.managedFields = managedFields;
      if (status === undefined) delete obj['status'];
      else obj['status'] = status;
    },
  };
}
