// Custom resource strategies (apiextensions-apiserver/pkg/registry/customresource/strategy.go and
// status_strategy.go): scope from the CRD, status kept out of the main resource when the status
// subresource is on, metadata checked as kube checks it, and the object validated against the
// served version's OpenAPI schema and its CEL rules (x-kubernetes-validations, cel/).
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
import type { CustomResourceRuleValidator } from './cel/validator.js';
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

function validateObject(obj: KubeObject, o: CustomResourceStrategyOptions, old?: KubeObject): ErrorList {
  return withRules(
    [
      ...validateObjectMeta(obj.metadata ?? {}, {
        requiresNamespace: o.namespaced,
        validateName: nameIsDNSSubdomain,
      }),
      ...validateTypeMeta(obj, o),
      ...validateCustomResourceObject(obj, o.schema),
    ],
    { obj, o, old },
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
  return withRules([...validateCustomResourceObject(obj, o.schema)], { obj, o, old });
}

function withRules(
  errs: ErrorList,
  c: { obj: KubeObject; o: CustomResourceStrategyOptions; old: KubeObject | undefined },
): ErrorList {
  const { obj, o, old } = c;
  if (o.ruleValidator === undefined) return errs;
  // kube's hasBlockingErr: rules do not run on an object of the wrong shape.
  if (errs.some((e) => blockingErrors.has(e.type)))
    errs.push(FieldError.invalid(undefined, 'null', rulesNotChecked));
  else errs.push(...o.ruleValidator.validate(obj, old));
  return errs;
}

export function customResourceStrategy(o: CustomResourceStrategyOptions): CustomResourceStrategy {
  return {
    namespaceScoped: o.namespaced,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForCreate: (_ctx, obj) => {
      if (o.statusSubresource) delete obj['status'];
    },
    validate: (_ctx, obj) => validateObject(obj, o),
    prepareForUpdate: (_ctx, obj, old) => {
      if (!o.statusSubresource) return;
      if (old['status'] === undefined) delete obj['status'];
      else obj['status'] = old['status'];
    },
    validateUpdate: (_ctx, obj, old) => [
      ...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}),
      ...validateObject(obj, o, old),
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
