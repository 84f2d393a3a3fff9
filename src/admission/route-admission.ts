// The admission steps of one write, as kube's handlers take them (staging/src/k8s.io/apiserver/pkg/
// endpoints/handlers/{create,update,patch,delete}.go with registry/rest's
// AdmissionToValidateObject*Func): mutating admission before the write (for updates, on the object
// each try computes), validating admission handed to the Store as its validation hook, and for
// deletes both inside the Store's delete, against the stored object. The handlers call these; so
// does the controllers' admitted storage (admitted-storage.ts), so both admit alike.
import type { KubeObject } from '../api/meta.js';
import type { GroupVersionKind, GroupVersionResource } from '../machinery/schema/group-resource.js';
import type {
  UpdatedObjectInfo,
  ValidateObjectFunc,
  ValidateObjectUpdateFunc,
} from '../registry/rest/capabilities.js';
import type { RequestContext } from '../registry/rest/context.js';
import type { EquivalentResourceMapper } from '../registry/rest/equivalent-resources.js';
import { isDryRun } from '../registry/rest/options.js';
import type { Attributes, Operation, VerbOptions } from './attributes.js';
import type { AdmissionChain } from './chain.js';
import type { AdmissionResult, MutationInterface, ValidationInterface } from './interfaces.js';
import { deepCopyJSON } from '../machinery/json/deep-copy.js';

/** What every request to one resource path shares: its plugins (only those that may act on it). */
export interface RouteAdmission {
  readonly mutating: MutationInterface;
  readonly validating: ValidationInterface;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly equivalents?: EquivalentResourceMapper | undefined;
}

/** The chain's plugins for one route, split into kube's two halves. */
export function routeAdmission(
  chain: AdmissionChain,
  route: {
    kind: GroupVersionKind;
    resource: GroupVersionResource;
    subresource: string;
    equivalents?: EquivalentResourceMapper | undefined;
  },
): RouteAdmission {
  const forResource = chain.forResource(route.resource);
  return { ...route, mutating: forResource.mutationChain(), validating: forResource.validationChain() };
}

/** One call of a write verb, as admission sees it. */
export interface AdmissionCall {
  readonly operation: Operation;
  /** The URL's name, or the body's; '' for a create left to generateName and for deletecollection. */
  readonly name: string;
  readonly object: KubeObject | null;
  readonly oldObject: KubeObject | null;
  readonly options: VerbOptions;
}

/** admission.NewAttributesRecord. */
export function attributesFor(r: RouteAdmission, ctx: RequestContext, q: AdmissionCall): Attributes {
  return {
    operation: q.operation,
    kind: r.kind,
    resource: r.resource,
    subresource: r.subresource,
    namespace: ctx.namespace,
    name: q.name,
    object: q.object,
    oldObject: q.oldObject,
    userInfo: ctx.user,
    dryRun: isDryRun(q.options.dryRun),
    options: q.options,
    ...(r.equivalents === undefined ? {} : { equivalents: r.equivalents }),
  };
}

const nameOf = (obj: KubeObject): string => obj.metadata?.name ?? '';

/**
 * The handlers' mutating step: `mutatingAdmission.Admit` when a plugin handles the operation. A
 * promise only when a plugin had to wait; a refusal may be thrown from the call itself.
 */
export function admitMutation(r: RouteAdmission, ctx: RequestContext, q: AdmissionCall): AdmissionResult {
  return r.mutating.handles(q.operation) ? r.mutating.admit(ctx, attributesFor(r, ctx, q)) : undefined;
}

/** `validate` run after `first` (a validation the caller already had), or alone without one. */
function after<A extends unknown[]>(
  first: ((...args: A) => void | Promise<void>) | undefined,
  validate: (...args: A) => AdmissionResult,
): (...args: A) => AdmissionResult {
  if (first === undefined) return validate;
  return async (...args) => {
    await first(...args);
    await validate(...args);
  };
}

/**
 * rest.AdmissionToValidateObjectFunc for a create: validating admission of the object about to be
 * written; undefined when no plugin of the route validates creates (the Store then copies nothing).
 */
export function createValidation(
  r: RouteAdmission,
  q: AdmissionCall,
  first?: ValidateObjectFunc,
): ValidateObjectFunc | undefined {
  const { validating } = r;
  if (!validating.handles('CREATE')) return first;
  // A generated name is known by now.
  const validate = (ctx: RequestContext, obj: KubeObject): AdmissionResult => {
    const name = q.name !== '' ? q.name : nameOf(obj);
    return validating.validate(ctx, attributesFor(r, ctx, { ...q, name, object: obj }));
  };
  return after(first, validate);
}

/** rest.AdmissionToValidateObjectUpdateFunc. */
export function updateValidation(
  r: RouteAdmission,
  q: AdmissionCall,
  first?: ValidateObjectUpdateFunc,
): ValidateObjectUpdateFunc | undefined {
  const { validating } = r;
  if (!validating.handles('UPDATE')) return first;
  const validate = (ctx: RequestContext, obj: KubeObject, old: KubeObject): AdmissionResult =>
    validating.validate(ctx, attributesFor(r, ctx, { ...q, object: obj, oldObject: old }));
  return after(first, validate);
}

/**
 * rest.AdmissionToValidateObjectDeleteFunc: kube admits deletes only here, inside the Store's
 * delete, mutating then validating, with the stored object as oldObject.
 */
export function deleteValidation(
  r: RouteAdmission,
  q: { readonly name: string; readonly options: VerbOptions },
  first?: ValidateObjectFunc,
): ValidateObjectFunc | undefined {
  const { mutating, validating } = r;
  const admits = mutating.handles('DELETE');
  const validates = validating.handles('DELETE');
  if (!admits && !validates) return first;
  return async (ctx, old) => {
    await first?.(ctx, old);
    const call = { ...q, operation: 'DELETE', object: null, oldObject: deepCopyJSON(old) } as const;
    const attributes = attributesFor(r, ctx, call);
    if (admits) await mutating.admit(ctx, attributes);
    if (validates) await validating.validate(ctx, attributes);
  };
}

/**
 * A connect request's admission (handlers/rest.go ConnectResource): mutating then validating, the
 * request's options as the object, before the connecter looks its target up.
 */
export async function admitConnect(
  r: RouteAdmission,
  ctx: RequestContext,
  q: { readonly name: string; readonly options: KubeObject },
): Promise<void> {
  const { mutating, validating } = r;
  const admits = mutating.handles('CONNECT');
  const validates = validating.handles('CONNECT');
  if (!admits && !validates) return;
  const call = {
    operation: 'CONNECT',
    name: q.name,
    object: q.options,
    oldObject: null,
    options: {},
  } as const;
  const attributes = attributesFor(r, ctx, call);
  if (admits) await mutating.admit(ctx, attributes);
  if (validates) await validating.validate(ctx, attributes);
}

/**
 * An update's object as each try computes it, then mutating admission on it: CREATE when there is
 * no object yet (create on update, apply), UPDATE with the stored one otherwise.
 */
export function admittingObjectInfo(
  r: RouteAdmission,
  objInfo: UpdatedObjectInfo,
  q: { readonly name: string; readonly options: VerbOptions },
): UpdatedObjectInfo {
  const admitsCreate = r.mutating.handles('CREATE');
  const admitsUpdate = r.mutating.handles('UPDATE');
  if (!admitsCreate && !admitsUpdate) return objInfo;
  return {
    preconditions: () => objInfo.preconditions(),
    // Admission reads the old object (webhooks get a serialization of it); it changes only `object`.
    readsOldOnly: objInfo.readsOldOnly === true,
    updatedObject: async (ctx, old) => {
      const obj = await objInfo.updatedObject(ctx, old);
      const operation = old === null ? 'CREATE' : 'UPDATE';
      const admitted = admitMutation(r, ctx, { ...q, operation, object: obj, oldObject: old });
      if (admitted !== undefined) await admitted;
      return obj;
    },
  };
}

/** The validation hooks of an update: as a create when there is no object yet, else as an update. */
export function updateValidations(
  r: RouteAdmission,
  q: { readonly name: string; readonly options: VerbOptions },
  first: {
    readonly createValidation?: ValidateObjectFunc | undefined;
    readonly updateValidation?: ValidateObjectUpdateFunc | undefined;
  } = {},
): { createValidation?: ValidateObjectFunc; updateValidation?: ValidateObjectUpdateFunc } {
  const asCreate: AdmissionCall = { ...q, operation: 'CREATE', object: null, oldObject: null };
  const create = createValidation(r, asCreate, first.createValidation);
  const update = updateValidation(r, { ...asCreate, operation: 'UPDATE' }, first.updateValidation);
  return {
    ...(create === undefined ? {} : { createValidation: create }),
    ...(update === undefined ? {} : { updateValidation: update }),
  };
}
