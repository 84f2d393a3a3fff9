// Admission around REST storage: what kube's create, update, patch, delete and deletecollection
// handlers do (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/*.go with rest.go's
// AdmissionToValidateObject*Func): for creates and updates, mutating admission before the write (for
// updates, on the object each try computes) and validating admission inside it; for deletes, both
// inside it, against the stored object. A decorator over the storage rather than code in
// the handlers because src/endpoints may not import src/server; every verb that writes goes through it.
import type { KubeObject } from '../api/meta.js';
import type { GroupVersionKind, GroupVersionResource } from '../machinery/schema/group-resource.js';
import { parseGroupVersion } from '../machinery/schema/group-resource.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import type {
  CollectionDeleter,
  Creater,
  GracefulDeleter,
  NamedCreater,
  Storage,
  UpdateRequest,
  Updater,
  ValidateObjectFunc,
  ValidateObjectUpdateFunc,
} from '../registry/rest/capabilities.js';
import type { RequestContext } from '../registry/rest/context.js';
import { isDryRun } from '../registry/rest/options.js';
import type { Attributes, Operation } from './attributes.js';
import type { AdmissionChain } from './chain.js';
import type { MutationInterface, ValidationInterface } from './interfaces.js';

/** The two halves of the chain, as kube's handlers take them. */
export interface Admission {
  readonly mutating: MutationInterface;
  readonly validating: ValidationInterface;
}

/** What every request to one resource path shares. */
export interface AdmissionRoute {
  readonly admission: Admission;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
}

/** One call of a write verb, as admission sees it. */
interface Call {
  readonly operation: Operation;
  readonly name: string;
  readonly object: KubeObject | null;
  readonly oldObject: KubeObject | null;
  readonly dryRun: readonly string[] | undefined;
}

function attributesFor(r: AdmissionRoute, ctx: RequestContext, q: Call): Attributes {
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
    dryRun: isDryRun(q.dryRun),
  };
}

const nameOf = (obj: KubeObject): string => obj.metadata?.name ?? '';

// The storage deep-copies the object for every validation function it is given, so none is given
// where no plugin would look.
const only = <F>(f: F | undefined): { validate?: F } => (f === undefined ? {} : { validate: f });

async function admit(r: AdmissionRoute, ctx: RequestContext, q: Call): Promise<void> {
  const { mutating } = r.admission;
  if (mutating.handles(q.operation)) await mutating.admit(ctx, attributesFor(r, ctx, q));
}

/** rest.AdmissionToValidateObjectFunc: validating admission of the object about to be created. */
function validateCreate(
  r: AdmissionRoute,
  q: Call,
  first?: ValidateObjectFunc,
): ValidateObjectFunc | undefined {
  const { validating } = r.admission;
  if (!validating.handles('CREATE')) return first;
  return async (ctx, obj) => {
    await first?.(ctx, obj);
    // A generated name is known by now.
    const name = q.name !== '' ? q.name : nameOf(obj);
    await validating.validate(ctx, attributesFor(r, ctx, { ...q, name, object: obj }));
  };
}

function validateUpdate(
  r: AdmissionRoute,
  q: Call,
  first?: ValidateObjectUpdateFunc,
): ValidateObjectUpdateFunc | undefined {
  const { validating } = r.admission;
  if (!validating.handles('UPDATE')) return first;
  return async (ctx, obj, old) => {
    await first?.(ctx, obj, old);
    await validating.validate(ctx, attributesFor(r, ctx, { ...q, object: obj, oldObject: old }));
  };
}

/**
 * rest.AdmissionToValidateObjectDeleteFunc: kube admits deletes only here, inside the storage's
 * delete, mutating then validating, with the stored object as oldObject.
 */
function admitDelete(r: AdmissionRoute, q: Call, first?: ValidateObjectFunc): ValidateObjectFunc | undefined {
  const { mutating, validating } = r.admission;
  const admits = mutating.handles('DELETE');
  const validates = validating.handles('DELETE');
  if (!admits && !validates) return first;
  return async (ctx, old) => {
    await first?.(ctx, old);
    const attributes = attributesFor(r, ctx, { ...q, oldObject: structuredClone(old) });
    if (admits) await mutating.admit(ctx, attributes);
    if (validates) await validating.validate(ctx, attributes);
  };
}

function admittedCreate(r: AdmissionRoute, target: Creater): Creater['create'] {
  return async (ctx, obj, opts) => {
    const { options, validate } = opts;
    const q: Call = {
      operation: 'CREATE',
      name: nameOf(obj),
      object: obj,
      oldObject: null,
      dryRun: options.dryRun,
    };
    await admit(r, ctx, q);
    return target.create(ctx, obj, { options, ...only(validateCreate(r, q, validate)) });
  };
}

/** A named create (pods/binding, serviceaccounts/token) is admitted under the URL's name. */
function admittedCreateNamed(r: AdmissionRoute, target: NamedCreater): NamedCreater['createNamed'] {
  return async (ctx, name, req) => {
    const { obj, options, validate } = req;
    const q: Call = { operation: 'CREATE', name, object: obj, oldObject: null, dryRun: options.dryRun };
    await admit(r, ctx, q);
    return target.createNamed(ctx, name, { obj, options, ...only(validateCreate(r, q, validate)) });
  };
}

function admittedUpdate(r: AdmissionRoute, target: Updater): Updater['update'] {
  return (ctx, name, req) => {
    const dryRun = req.options.dryRun;
    const asCreate: Call = { operation: 'CREATE', name, object: null, oldObject: null, dryRun };
    const asUpdate: Call = { ...asCreate, operation: 'UPDATE' };
    const { createValidation, updateValidation, ...rest } = req;
    const createCheck = validateCreate(r, asCreate, createValidation);
    const updateCheck = validateUpdate(r, asUpdate, updateValidation);
    const admitted: UpdateRequest = {
      ...rest,
      objInfo: {
        preconditions: () => req.objInfo.preconditions(),
        updatedObject: async (c, old) => {
          const obj = await req.objInfo.updatedObject(c, old);
          const q = old === null ? asCreate : asUpdate;
          await admit(r, c, { ...q, object: obj, oldObject: old });
          return obj;
        },
      },
      ...(createCheck === undefined ? {} : { createValidation: createCheck }),
      ...(updateCheck === undefined ? {} : { updateValidation: updateCheck }),
    };
    return target.update(ctx, name, admitted);
  };
}

const deleting = (name: string, dryRun: readonly string[] | undefined): Call => ({
  operation: 'DELETE',
  name,
  object: null,
  oldObject: null,
  dryRun,
});

function admittedDelete(r: AdmissionRoute, target: GracefulDeleter): GracefulDeleter['delete'] {
  return (ctx, name, { options, validate }) => {
    const check = admitDelete(r, deleting(name, options.dryRun), validate);
    return target.delete(ctx, name, { options, ...only(check) });
  };
}

/** Each item is admitted as it is deleted, under the collection's name: ''. */
function admittedDeleteCollection(
  r: AdmissionRoute,
  target: CollectionDeleter,
): CollectionDeleter['deleteCollection'] {
  return (ctx, { options, listOptions, validate }) => {
    const check = admitDelete(r, deleting('', options.dryRun), validate);
    return target.deleteCollection(ctx, { options, listOptions, ...only(check) });
  };
}

/** The admitted version of a write verb, or null for what admission does not see. */
function wrapVerb(r: AdmissionRoute, target: Storage, prop: string | symbol): unknown {
  const has = (m: string): boolean => prop === m && typeof Reflect.get(target, m) === 'function';
  if (has('create')) return admittedCreate(r, target as Storage & Creater);
  if (has('createNamed')) return admittedCreateNamed(r, target as Storage & NamedCreater);
  if (has('update')) return admittedUpdate(r, target as Storage & Updater);
  if (has('delete')) return admittedDelete(r, target as Storage & GracefulDeleter);
  if (has('deleteCollection')) return admittedDeleteCollection(r, target as Storage & CollectionDeleter);
  return null;
}

/**
 * The storage with admission on its write verbs and everything else untouched: the same
 * capabilities (the installer derives verbs from which methods exist), methods bound to the target.
 */
export function withAdmission(storage: Storage, route: AdmissionRoute): Storage {
  const wrapped = new Map<string | symbol, unknown>();
  return new Proxy(storage, {
    get(target, prop) {
      if (!wrapped.has(prop)) {
        const verb = wrapVerb(route, target, prop);
        const own: unknown = Reflect.get(target, prop, target);
        wrapped.set(prop, verb ?? (typeof own === 'function' ? own.bind(target) : own));
      }
      return wrapped.get(prop);
    },
  });
}

function kindOf(storage: Storage, fallback: GroupVersionResource): GroupVersionKind {
  const obj = storage.newObject();
  const gv = parseGroupVersion(obj.apiVersion ?? '') ?? fallback;
  return { group: gv.group, version: gv.version, kind: obj.kind ?? '' };
}

/** A chain split into its mutating and validating halves. */
export function admissionOf(chain: AdmissionChain): Admission {
  return { mutating: chain.mutationChain(), validating: chain.validationChain() };
}

/** Every storage of every group behind admission; resource paths `pods/status` split as kube does. */
export function admittedGroups(groups: readonly APIGroupInfo[], chain: AdmissionChain): APIGroupInfo[] {
  const admission = admissionOf(chain);
  return groups.map((g) => {
    const versions = Object.entries(g.versionedResourcesStorageMap).map(([version, storages]) => {
      const admitted = Object.entries(storages).map(([path, storage]) => {
        const [resource = '', subresource = ''] = path.split('/');
        const gvr = { group: g.group, version, resource };
        const route = { admission, kind: kindOf(storage, gvr), resource: gvr, subresource };
        return [path, withAdmission(storage, route)] as const;
      });
      return [version, Object.fromEntries(admitted)] as const;
    });
    return { ...g, versionedResourcesStorageMap: Object.fromEntries(versions) };
  });
}
