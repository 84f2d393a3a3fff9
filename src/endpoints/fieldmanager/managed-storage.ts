// managedFields for the server's own writers. kube's controllers, kubelet, scheduler and the
// apiserver's bootstrap write through a client, and the handlers record each write under the
// request's fieldManager or, without one, its user agent up to the first `/` (managerOrUserAgent):
// kube-controller-manager, kubelet, kube-scheduler, kube-apiserver. Capstan's run in process over
// the registry's storages; the views made here take the handlers' managed-fields step on create
// and update, under `options.fieldManager` or the writer's name. Only in-process writers use them:
// requests keep the step their handlers take, over the unwrapped storages.
import { parseGroupVersion, type GroupVersionKind } from '../../machinery/schema/group-resource.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  isCreater,
  isNamedCreater,
  isUpdater,
  type Creater,
  type NamedCreater,
  type Storage,
  type UpdatedObjectInfo,
  type Updater,
} from '../../registry/rest/capabilities.js';
import type { FieldManager } from './field-manager.js';
import type { FieldManagers } from './field-managers.js';

/**
 * A field manager and the name a write is recorded under: for a writer's view, the name of writes
 * that give no fieldManager (kube's user agent prefix: `kube-controller-manager`, `kubelet`, …).
 */
export interface ManagedWrite {
  readonly fieldManager: FieldManager;
  readonly manager: string;
}

/** The object an update computes, with managedFields brought up to date against the one it replaces. */
export function withManagedFields(objInfo: UpdatedObjectInfo, fm: ManagedWrite): UpdatedObjectInfo {
  return {
    preconditions: () => objInfo.preconditions(),
    // The field manager only reads the live object.
    readsOldOnly: objInfo.readsOldOnly === true,
    updatedObject: async (ctx, old) => {
      const obj = await objInfo.updatedObject(ctx, old);
      return old === null
        ? fm.fieldManager.createNoErrors(obj, fm.manager)
        : fm.fieldManager.updateNoErrors(old, obj, fm.manager);
    },
  };
}

/** The writer's manager name, as the handlers take it: the fieldManager option wins. */
const managerOf = (fieldManager: string | undefined, writer: string): string =>
  fieldManager !== undefined && fieldManager !== '' ? fieldManager : writer;

function managedCreate(target: Creater, m: ManagedWrite): Creater['create'] {
  return (ctx, obj, req) =>
    target.create(
      ctx,
      m.fieldManager.createNoErrors(obj, managerOf(req.options.fieldManager, m.manager)),
      req,
    );
}

/** A named create (pods/binding, serviceaccounts/token): its body recorded as the handler does. */
function managedCreateNamed(target: NamedCreater, m: ManagedWrite): NamedCreater['createNamed'] {
  return (ctx, name, req) => {
    const obj = m.fieldManager.createNoErrors(req.obj, managerOf(req.options.fieldManager, m.manager));
    return target.createNamed(ctx, name, { ...req, obj });
  };
}

function managedUpdate(target: Updater, m: ManagedWrite): Updater['update'] {
  return (ctx, name, req) => {
    // A server-side apply (the clusterrole aggregation controller's) records its own Apply entry.
    if (req.objInfo.managesFields === true) return target.update(ctx, name, req);
    const manager = managerOf(req.options.fieldManager, m.manager);
    const objInfo = withManagedFields(req.objInfo, { fieldManager: m.fieldManager, manager });
    return target.update(ctx, name, { ...req, objInfo });
  };
}

/** Every method of the storage, on its prototypes too, bound to it. */
function boundMethods(storage: Storage): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const methods = storage as unknown as Readonly<Record<string, unknown>>;
  for (
    let o: object | null = storage;
    o !== null && o !== Object.prototype;
    o = Object.getPrototypeOf(o) as object | null
  ) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key === 'constructor' || key in out) continue;
      const method = methods[key];
      if (typeof method === 'function') out[key] = method.bind(storage);
    }
  }
  return out;
}

/**
 * The storage with its creates and updates recorded in managedFields (Update entries of the
 * writer); everything else passes through, bound to it. Deletes change no managedFields.
 */
export function managedFieldsStorage(storage: Storage, writer: ManagedWrite): Storage {
  const out = boundMethods(storage);
  if (isCreater(storage)) out['create'] = managedCreate(storage, writer);
  if (isNamedCreater(storage)) out['createNamed'] = managedCreateNamed(storage, writer);
  if (isUpdater(storage)) out['update'] = managedUpdate(storage, writer);
  return out as unknown as Storage;
}

function kindOf(storage: Storage, fallback: { group: string; version: string }): GroupVersionKind {
  const obj = storage.newObject();
  const gv = parseGroupVersion(obj.apiVersion ?? '') ?? fallback;
  return { group: gv.group, version: gv.version, kind: obj.kind ?? '' };
}

/**
 * The groups as one writer sees them: each storage whose kind has a field manager (its kind, and
 * the subresource of its path, as the installer gives its routes) records that writer's writes.
 */
export function managedFieldsGroups(
  groups: readonly APIGroupInfo[],
  writer: { readonly fieldManagers: FieldManagers; readonly manager: string },
): APIGroupInfo[] {
  return groups.map((g) => {
    const versions = Object.entries(g.versionedResourcesStorageMap).map(([version, storages]) => {
      const managed = Object.entries(storages).map(([path, storage]) => {
        const subresource = path.split('/')[1] ?? '';
        const fieldManager = writer.fieldManagers.forKind(
          kindOf(storage, { group: g.group, version }),
          subresource,
        );
        const out =
          fieldManager === undefined
            ? storage
            : managedFieldsStorage(storage, { fieldManager, manager: writer.manager });
        return [path, out] as const;
      });
      return [version, Object.fromEntries(managed)] as const;
    });
    return { ...g, versionedResourcesStorageMap: Object.fromEntries(versions) };
  });
}
