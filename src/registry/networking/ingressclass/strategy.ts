// IngressClass policy (pkg/registry/networking/ingressclass/strategy.go) and validation
// (ValidateIngressClass and ValidateIngressClassUpdate in pkg/apis/networking/validation, with
// IsDomainPrefixedPath of k8s.io/apimachinery/pkg/api/validation).
import {
  ingressClassParametersScopes,
  type IngressClass,
  type IngressClassParametersReference,
} from '../../../api/networking/v1/ingress-class.js';
import {
  byteLength,
  FieldError,
  FieldPath,
  isDNS1123Subdomain,
  isDomainPrefixedPath,
  validateNamespaceName,
  validatePathSegmentName,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { validateImmutableField, validateObjectMetaUpdate } from '../../generic/validate-meta-update.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

const maxLenIngressClassController = 250;

/**
 * validateIngressTypedLocalObjectReference: an apiGroup that is set (even to "") must be a DNS
 * subdomain; kind and name are required path segments.
 */
function validateTypedReference(params: IngressClassParametersReference, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const group = params.apiGroup;
  if (group !== undefined)
    errs.push(...isDNS1123Subdomain(group).map((m) => FieldError.invalid(path.child('apiGroup'), group, m)));
  for (const name of ['kind', 'name'] as const) {
    const value = (params[name] as string | undefined) ?? '';
    if (value === '') errs.push(FieldError.required(path.child(name), `${name} is required`));
    else
      errs.push(
        ...validatePathSegmentName(value, false).map((m) => FieldError.invalid(path.child(name), value, m)),
      );
  }
  return errs;
}

/** validateIngressClassParametersReference: the reference, then the scope and its namespace rules. */
function validateParameters(params: IngressClassParametersReference | undefined, path: FieldPath): ErrorList {
  if (params === undefined) return [];
  const errs = validateTypedReference(params, path);
  const scope = params.scope;
  if (scope === undefined) return [...errs, FieldError.required(path.child('scope'), '')];
  if (!(ingressClassParametersScopes as readonly string[]).includes(scope)) {
    errs.push(FieldError.notSupported(path.child('scope'), scope, ingressClassParametersScopes));
  } else if (scope === 'Namespace') {
    const ns = params.namespace;
    if (ns === undefined) {
      errs.push(FieldError.required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    } else {
      errs.push(
        ...validateNamespaceName(ns, false).map((m) => FieldError.invalid(path.child('namespace'), ns, m)),
      );
    }
  } else if (params.namespace !== undefined) {
    errs.push(FieldError.forbidden(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

/** ValidateIngressClass: the spec (metadata with DNS-subdomain names, then the fields). */
export function validateIngressClass(ic: IngressClass): ErrorList {
  return [
    ...validateObjectMeta(ic.metadata ?? {}, { requiresNamespace: false, validateName: nameIsDNSSubdomain }),
    ...validateIngressClassFields(ic),
  ];
}

function validateIngressClassFields(ic: IngressClass): ErrorList {
  const path = FieldPath.of('spec');
  const controller = ic.spec?.controller ?? '';
  const errs: ErrorList = [];
  if (byteLength(controller) > maxLenIngressClassController) {
    errs.push(FieldError.tooLong(path.child('controller'), maxLenIngressClassController));
  }
  errs.push(...isDomainPrefixedPath(path.child('controller'), controller));
  errs.push(...validateParameters(ic.spec?.parameters, path.child('parameters')));
  return errs;
}

/**
 * ValidateIngressClassUpdate, in kube's order: the metadata against the stored object, the
 * immutable controller, then the whole object as on create.
 */
export function validateIngressClassUpdate(ic: IngressClass, old: IngressClass): ErrorList {
  return [
    ...validateObjectMetaUpdate(ic.metadata ?? {}, old.metadata ?? {}),
    ...validateImmutableField(
      ic.spec?.controller ?? '',
      old.spec?.controller ?? '',
      FieldPath.of('spec', 'controller'),
    ),
    ...validateIngressClass(ic),
  ];
}

// SetDefaults_IngressClass: parameters without a scope are cluster-scoped.
function setDefaults(ic: IngressClass): void {
  const params = ic.spec?.parameters;
  if (params !== undefined) params.scope ??= 'Cluster';
}

export const ingressClassStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDefaults,
  prepareForCreate: (_ctx, ic) => {
    setDefaults(ic);
  },
  validate: (_ctx, ic) => validateIngressClass(ic),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, ic) => {
    setDefaults(ic);
  },
  validateUpdate: (_ctx, ic, old) => validateIngressClassUpdate(ic, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<IngressClass> & UpdateStrategy<IngressClass>;

export const ingressClassDeleteStrategy = {} satisfies DeleteStrategy<IngressClass>;
