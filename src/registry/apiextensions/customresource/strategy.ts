// Custom resource strategies (apiextensions-apiserver/pkg/registry/customresource/strategy.go and
// status_strategy.go): scope from the CRD, status kept out of the main resource when the status
// subresource is on, metadata checked as kube checks it, the object validated against the served
// version's OpenAPI schema and its CEL rules (x-kubernetes-validations, cel/), and the values the
// scale subresource reads checked (scale-validation.ts), the x-kubernetes-embedded-resource values'
// type and metadata checked unratcheted (schema/embedded-resources.ts), and new finalizer names
// warned of (finalizer-warnings.ts). Updates (main resource and /status) ratchet as kube 1.33's do
// (CRDValidationRatcheting): schema errors and rule failures at parts of the object the update left
// unchanged are not reported (a rule's become warnings), so a tightened schema does not block
// updates that leave the now-invalid fields alone.
//
// With the status subresource on, a main-resource update keeps the stored status, and kube still
// validates the whole object against the whole schema: the status part, unchanged, ratchets, while
// the scale status check (ValidateScaleStatus) does not ratchet. A /status update is validated by
// its own rules (customResourceStatusStrategy below).
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
import { ratchetedListErrors, validateCustomResourceValue } from './schema/validate-object.js';
import { embeddedResourceValidator, type EmbeddedResourceValidator } from './schema/embedded-resources.js';
import { finalizerWarnings } from './finalizer-warnings.js';
import type { CustomResourceRuleValidator, RuleRatchet } from './cel/validator.js';
import { Correlation } from './schema/correlation.js';
import type { RequestContext } from '../../rest/context.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { memberOf } from '../../../machinery/json/set-member.js';
import type { ScalePaths } from './scale-paths.js';
import { validateScaleSpec, validateScaleStatus } from './scale-validation.js';

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
  /** The version's scale subresource, when it has one: the paths its values are checked at. */
  readonly scale?: ScalePaths;
}

export type CustomResourceStrategy = CreateStrategy & UpdateStrategy;

// kube's validator.ValidateTypeMeta: kind, then apiVersion. When either is wrong these are all that
// its Validate, ValidateUpdate and ValidateStatusUpdate report.
function validateTypeMeta(obj: KubeObject, o: CustomResourceStrategyOptions): ErrorList {
  const errs: ErrorList = [];
  if (obj.kind !== o.kind)
    errs.push(FieldError.invalid(FieldPath.of('kind'), obj.kind ?? '', `must be ${o.kind}`));
  if (obj.apiVersion !== o.apiVersion)
    errs.push(
      FieldError.invalid(FieldPath.of('apiVersion'), obj.apiVersion ?? '', `must be ${o.apiVersion}`),
    );
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

/**
 * A create or main-resource update, as kube 1.33's customResourceStrategy.Validate and
 * ValidateUpdate with the validator's Validate and ValidateUpdate: a wrong kind or apiVersion is all
 * the validator reports; otherwise the metadata (on create as ValidateObjectMetaAccessor with
 * DNS-subdomain names, on update only ValidateObjectMetaAccessorUpdate), the schema (ratcheted on
 * update) and the scale paths. The embedded resources (unratcheted), list-type duplicates and the
 * CEL rules are checked either way.
 */
function validateObject(
  t: Target,
  o: CustomResourceStrategyOptions,
  embedded: EmbeddedResourceValidator | undefined,
): ErrorList {
  const { obj, old } = t;
  const update = old === undefined ? undefined : new Correlation(obj, old, o.schema);
  const errs = validateTypeMeta(obj, o);
  if (errs.length === 0) {
    const meta = obj.metadata ?? {};
    errs.push(
      ...(old === undefined
        ? validateObjectMeta(meta, { requiresNamespace: o.namespaced, validateName: nameIsDNSSubdomain })
        : validateObjectMetaUpdate(meta, old.metadata ?? {})),
      ...validateCustomResourceValue(obj, o.schema, { update }),
      // kube's validator checks the scale paths on create and on every main-resource update.
      ...validateScaleSpec(obj, o.scale),
      ...validateScaleStatus(obj, o.scale),
    );
  }
  if (embedded !== undefined) errs.push(...embedded(obj));
  errs.push(...ratchetedListErrors(obj, o.schema, old));
  return withRules(errs, { t, o, update });
}

/**
 * A /status update, as kube 1.33's statusStrategy.ValidateUpdate and the validator's
 * ValidateStatusUpdate: wrong apiVersion or kind is all that is reported of those steps; otherwise
 * the metadata update, then status alone against the schema's `properties.status` (no status schema:
 * no check), so a root `required` or an invalid spec, which this update cannot change, is not
 * reported, then the scale status paths. List-type duplicates and the CEL rules are then checked on
 * the whole object against the old one, as on the main resource: rules on spec still run, and with
 * spec unchanged their failures ratchet to warnings. kube checks no embedded-resource metadata here.
 */
function validateStatusUpdate(
  t: Target & { readonly old: KubeObject },
  o: CustomResourceStrategyOptions,
): ErrorList {
  const { obj, old } = t;
  const update = new Correlation(obj, old, o.schema);
  const errs = validateTypeMeta(obj, o);
  if (errs.length === 0) {
    errs.push(...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}));
    const statusSchema =
      o.schema.properties === undefined ? undefined : memberOf(o.schema.properties, 'status');
    if (statusSchema !== undefined && Object.hasOwn(obj, 'status')) {
      // kube ratchets status with the whole object's correlation at `status`; without an old status
      // there is none and status is validated as created. Its validator's root is status itself:
      // texts name paths from there (`num in body ...`), and a `kind` or `apiVersion` directly
      // under status, taken for type metadata, never ratchets.
      errs.push(
        ...validateCustomResourceValue(obj['status'], statusSchema, {
          fldPath: FieldPath.of('status'),
          update: update.key('status'),
        }),
      );
    }
    errs.push(...validateScaleStatus(obj, o.scale));
  }
  errs.push(...ratchetedListErrors(obj, o.schema, old));
  return withRules(errs, { t, o, update });
}

/**
 * An object of a served version that is converted before it is stored (conversion Webhook) against
 * its version's schema and rules, as kube validates the request's version; on update, rule failures
 * that ratchet go to `at.warn`, the request's warnings.
 */
export function validateServedObject(
  obj: KubeObject,
  o: CustomResourceStrategyOptions,
  at: Pick<Target, 'old' | 'warn'>,
): ErrorList {
  const { old } = at;
  const update = old === undefined ? undefined : new Correlation(obj, old, o.schema);
  const errs = validateCustomResourceValue(obj, o.schema, { update });
  // Not the hot path (webhook conversion only): the schema's answer is cached.
  errs.push(...(embeddedResourceValidator(o.schema)?.(obj) ?? []));
  errs.push(...ratchetedListErrors(obj, o.schema, old));
  return withRules(errs, { t: { obj, old, warn: at.warn }, o, update });
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

export const warnTo =
  (ctx: RequestContext) =>
  (message: string): void => {
    ctx.addWarning(message);
  };

export function customResourceStrategy(o: CustomResourceStrategyOptions): CustomResourceStrategy {
  // Decided once per version: most schemas have no embedded resource and skip the walk.
  const embedded = embeddedResourceValidator(o.schema);
  return {
    namespaceScoped: o.namespaced,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForCreate: (_ctx, obj) => {
      if (o.statusSubresource) delete obj['status'];
    },
    validate: (_ctx, obj) => validateObject({ obj, old: undefined, warn: undefined }, o, embedded),
    warningsOnCreate: (_ctx, obj) => finalizerWarnings(obj, undefined),
    prepareForUpdate: (_ctx, obj, old) => {
      if (!o.statusSubresource) return;
      if (old['status'] === undefined) delete obj['status'];
      else obj['status'] = old['status'];
    },
    validateUpdate: (ctx, obj, old) => validateObject({ obj, old, warn: warnTo(ctx) }, o, embedded),
    warningsOnUpdate: (_ctx, obj, old) => finalizerWarnings(obj, old),
  };
}

/** `<resource>/status`: everything but status (and managedFields) stays as stored. */
export function customResourceStatusStrategy(o: CustomResourceStrategyOptions): UpdateStrategy {
  return {
    ...customResourceStrategy(o),
    validateUpdate: (ctx, obj, old) => validateStatusUpdate({ obj, old, warn: warnTo(ctx) }, o),
    // kube's statusStrategy.WarningsOnUpdate: none.
    warningsOnUpdate: () => [],
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
