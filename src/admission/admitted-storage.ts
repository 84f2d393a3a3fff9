// The built-in controllers' way to the API: kube's controllers write through the API server's
// loopback client, so their writes are admitted like any request. Ours run in the same process
// against the registry's storages; rather than a loopback client (encoding every object to JSON and
// back, and an HTTP exchange per write), they get storages wrapped here that take the very steps
// the handlers take (route-admission.ts: mutating admission before the write, validating admission
// as the Store's validation hook, deletes admitted inside the Store's delete). Only controllers use
// this; the HTTP path runs admission in its handlers over the unwrapped storages.
import type { GroupVersionKind, GroupVersionResource } from '../machinery/schema/group-resource.js';
import { parseGroupVersion } from '../machinery/schema/group-resource.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { EquivalentResourceRegistry } from '../registry/generic/equivalent-resource-registry.js';
import {
  isCollectionDeleter,
  isCreater,
  isGracefulDeleter,
  isNamedCreater,
  isUpdater,
  type CollectionDeleter,
  type Creater,
  type GracefulDeleter,
  type NamedCreater,
  type Storage,
  type Updater,
} from '../registry/rest/capabilities.js';
import type { AdmissionChain } from './chain.js';
import {
  admitMutation,
  admittingObjectInfo,
  createValidation,
  deleteValidation,
  routeAdmission,
  updateValidations,
  type RouteAdmission,
} from './route-admission.js';

// The capabilities (src/registry/rest/capabilities.ts) that read or do not write: passed through.
const readVerbs = [
  'newObject',
  'destroy',
  'namespaceScoped',
  'shortNames',
  'categories',
  'singularName',
  'get',
  'getEncoded',
  'convertToTable',
  'newList',
  'list',
  'listEncoded',
  'watch',
  'acceptsGroupVersion',
  'defaultDecoded',
  'connectMethods',
  'connect',
] as const;

// The Store deep-copies the object for every validation function it is given: none is given where
// no plugin would look.
const only = <F>(f: F | undefined): { validate?: F } => (f === undefined ? {} : { validate: f });

function admittedCreate(r: RouteAdmission, target: Creater): Creater['create'] {
  return async (ctx, obj, { options, validate }) => {
    const call = {
      operation: 'CREATE',
      name: obj.metadata?.name ?? '',
      object: obj,
      oldObject: null,
    } as const;
    const q = { ...call, options };
    await admitMutation(r, ctx, q);
    return target.create(ctx, obj, { options, ...only(createValidation(r, q, validate)) });
  };
}

/** A named create (pods/binding, serviceaccounts/token) is admitted under the URL's name. */
function admittedCreateNamed(r: RouteAdmission, target: NamedCreater): NamedCreater['createNamed'] {
  return async (ctx, name, { obj, options, validate }) => {
    const q = { operation: 'CREATE', name, object: obj, oldObject: null, options } as const;
    await admitMutation(r, ctx, q);
    return target.createNamed(ctx, name, { obj, options, ...only(createValidation(r, q, validate)) });
  };
}

function admittedUpdate(r: RouteAdmission, target: Updater): Updater['update'] {
  return (ctx, name, req) => {
    const { createValidation: onCreate, updateValidation: onUpdate, ...rest } = req;
    const call = { name, options: req.options };
    return target.update(ctx, name, {
      ...rest,
      objInfo: admittingObjectInfo(r, req.objInfo, call),
      ...updateValidations(r, call, { createValidation: onCreate, updateValidation: onUpdate }),
    });
  };
}

function admittedDelete(r: RouteAdmission, target: GracefulDeleter): GracefulDeleter['delete'] {
  return (ctx, name, { options, validate }) =>
    target.delete(ctx, name, {
      options,
      ...only(deleteValidation(r, { name, options }, validate)),
    });
}

/** Each item is admitted as it is deleted, under the collection's name: ''. */
function admittedDeleteCollection(
  r: RouteAdmission,
  target: CollectionDeleter,
): CollectionDeleter['deleteCollection'] {
  return (ctx, { options, listOptions, validate }) =>
    target.deleteCollection(ctx, {
      options,
      listOptions,
      ...only(deleteValidation(r, { name: '', options }, validate)),
    });
}

/**
 * The storage's capabilities with its write verbs admitted: reads and the rest pass through bound
 * to the storage; what it cannot do, the result cannot either.
 */
export function admittedStorage(storage: Storage, route: RouteAdmission): Storage {
  const methods = storage as unknown as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const verb of readVerbs) {
    const method = methods[verb];
    if (typeof method === 'function') out[verb] = method.bind(storage);
  }
  if (isCreater(storage)) out['create'] = admittedCreate(route, storage);
  if (isNamedCreater(storage)) out['createNamed'] = admittedCreateNamed(route, storage);
  if (isUpdater(storage)) out['update'] = admittedUpdate(route, storage);
  if (isGracefulDeleter(storage)) out['delete'] = admittedDelete(route, storage);
  if (isCollectionDeleter(storage)) out['deleteCollection'] = admittedDeleteCollection(route, storage);
  return out as unknown as Storage;
}

function kindOf(storage: Storage, fallback: GroupVersionResource): GroupVersionKind {
  const obj = storage.newObject();
  const gv = parseGroupVersion(obj.apiVersion ?? '') ?? fallback;
  return { group: gv.group, version: gv.version, kind: obj.kind ?? '' };
}

/** Every storage of every group admitted; resource paths `pods/status` split as kube does. */
export function admittedGroups(groups: readonly APIGroupInfo[], chain: AdmissionChain): APIGroupInfo[] {
  const equivalents = new EquivalentResourceRegistry(groups);
  return groups.map((g) => {
    const versions = Object.entries(g.versionedResourcesStorageMap).map(([version, storages]) => {
      const admitted = Object.entries(storages).map(([path, storage]) => {
        const [resource = '', subresource = ''] = path.split('/');
        const gvr = { group: g.group, version, resource };
        const kind = kindOf(storage, gvr);
        const route = routeAdmission(chain, { kind, resource: gvr, subresource, equivalents });
        return [path, admittedStorage(storage, route)] as const;
      });
      return [version, Object.fromEntries(admitted)] as const;
    });
    return { ...g, versionedResourcesStorageMap: Object.fromEntries(versions) };
  });
}
