// The scale subresource of a replicated resource (ScaleREST and scaleUpdatedObjectInfo in
// pkg/registry/core/replicationcontroller/storage/storage.go; the apps kinds follow the same
// shape): an autoscaling/v1 Scale read from the parent object, and written back into it through
// the parent store's guaranteed update, so the parent's strategy, generation and conflicts apply.
import type { Scale, ScaleSpec, ScaleStatus } from '../../api/autoscaling/v1/scale.js';
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { Table } from '../../api/table.js';
import {
  isStatusError,
  newBadRequest,
  newConflict,
  newInvalid,
  newNotFound,
} from '../../machinery/errors/index.js';
import { fieldElement } from '../../machinery/patch/fieldpath/path-element.js';
import {
  parentManagedFields,
  scaleManagedFields,
  type ReplicasPaths,
} from '../../machinery/patch/scale-managed-fields.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateObjectMeta,
  type ErrorList,
} from '../../machinery/validation/index.js';
import type {
  Getter,
  Storage,
  TableConvertor,
  UpdatedObjectInfo,
  UpdateRequest,
  Updater,
} from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { GetOptions } from '../rest/options.js';
import { translateTimestampSince } from './human-duration.js';
import type { Store } from './store.js';
import { ageColumn, nameColumn, tableConvertorFor } from './table-convertor.js';

/** The part of a Scale the parent decides: desired replicas, observed replicas and selector. */
export interface ScaleParts {
  readonly spec: ScaleSpec;
  readonly status: ScaleStatus;
  /**
   * Where the parent's replicas would be, when it has none (a custom resource's specReplicasPath):
   * a write through the Scale must then set them.
   */
  readonly missingReplicasAt?: string;
}

/** The replicas a Scale is shown to its writer with when the parent has none (the smallest int32). */
const unsetReplicas = -2147483648;

export interface ScaleRESTOptions<T extends KubeObject> {
  /** The parent resource's store; the Scale is read from and written into its objects. */
  readonly store: Store<T>;
  /** The Scale's spec and status for a parent object. */
  readonly toScale: (obj: T) => ScaleParts;
  /** The parent with its desired replicas set to `replicas` (may change `obj` in place). */
  readonly applyScale: (obj: T, replicas: number) => T;
  /**
   * The resource a get of a missing parent names; `<resource>/scale` in the parent's group when
   * unset. kube names `replicationcontrollers/scale` in the autoscaling group.
   */
  readonly notFoundResource?: GroupResource;
  /**
   * Where the parent keeps its replicas, by the apiVersion of its managedFields entries, and the
   * version a new owner's entry is written in: a write through the Scale then moves the ownership
   * of the replicas field in the parent's managedFields (kube's ScaleHandler).
   */
  readonly replicasOwners?: { readonly apiVersion: string; readonly paths: ReplicasPaths };
  /**
   * A Scale without a resourceVersion is written against the parent's current one, not
   * unconditionally: a custom resource's (its updates must name one), as apiextensions' scale does.
   */
  readonly keepsParentResourceVersion?: boolean;
}

const scaleGroupKind = { group: 'autoscaling', kind: 'Scale' } as const;

/** ValidateScale (pkg/apis/autoscaling/validation): the metadata, and replicas not negative. */
export function validateScale(scale: Scale, requiresNamespace: boolean): ErrorList {
  const errs = validateObjectMeta(scale.metadata ?? {}, {
    requiresNamespace,
    validateName: nameIsDNSSubdomain,
  });
  const replicas = scale.spec?.replicas ?? 0;
  if (replicas < 0)
    errs.push(
      FieldError.invalid(FieldPath.of('spec', 'replicas'), replicas, 'must be greater than or equal to 0'),
    );
  return errs;
}

/** printScale in pkg/printers/internalversion/printers.go: NAME DESIRED AVAILABLE AGE. */
const scaleTableConvertor: TableConvertor = tableConvertorFor<Scale>({
  columns: [
    { ...nameColumn, format: '' },
    {
      name: 'Desired',
      type: 'integer',
      format: '',
      description: 'replicas is the desired number of instances for the scaled object.',
      priority: 0,
    },
    {
      name: 'Available',
      type: 'integer',
      format: '',
      description: 'replicas is the actual number of observed instances of the scaled object.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (scale, now) => [
    scale.metadata?.name ?? '',
    scale.spec?.replicas ?? 0,
    scale.status?.replicas ?? 0,
    translateTimestampSince(scale.metadata?.creationTimestamp, now),
  ],
});

/** A built-in parent's replicas field by the version of its managedFields entries: spec.replicas in `apiVersion`. */
export const specReplicasPaths = (apiVersion: string): ReplicasPaths =>
  new Map([[apiVersion, [fieldElement('spec'), fieldElement('replicas')]]]);

/** GET, PUT and PATCH of `<resource>/<name>/scale`. */
export class ScaleREST<T extends KubeObject> implements Storage, Getter, Updater, TableConvertor {
  readonly #opts: ScaleRESTOptions<T>;
  readonly #scaleResource: GroupResource;

  constructor(opts: ScaleRESTOptions<T>) {
    this.#opts = opts;
    const parent = opts.store.core.qualifiedResource;
    this.#scaleResource = { group: parent.group, resource: `${parent.resource}/scale` };
  }

  newObject(): Scale {
    return { apiVersion: 'autoscaling/v1', kind: 'Scale' };
  }

  destroy(): void {
    // The storage belongs to the parent resource, which releases it.
  }

  /** The Scale of a parent object: its identity, the parent's replicas and selector (`parts`, when read already). */
  scaleOf(obj: T, parts: ScaleParts = this.#opts.toScale(obj)): Scale {
    const meta = obj.metadata ?? {};
    const metadata: Scale['metadata'] = {};
    if (meta.name !== undefined) metadata.name = meta.name;
    if (meta.namespace !== undefined) metadata.namespace = meta.namespace;
    if (meta.uid !== undefined) metadata.uid = meta.uid;
    if (meta.resourceVersion !== undefined) metadata.resourceVersion = meta.resourceVersion;
    if (meta.creationTimestamp !== undefined) metadata.creationTimestamp = meta.creationTimestamp;
    const { spec, status } = parts;
    return {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata,
      spec: { ...spec },
      status: { ...status },
    };
  }

  async get(ctx: RequestContext, name: string, options: GetOptions): Promise<Scale> {
    try {
      return this.scaleOf(await this.#opts.store.get(ctx, name, options));
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404)
        throw newNotFound(this.#opts.notFoundResource ?? this.#scaleResource, name);
      throw err;
    }
  }

  async update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: Scale; created: boolean }> {
    const updateValidation = req.updateValidation;
    const { object } = await this.#opts.store.update(ctx, name, {
      objInfo: this.#updatedObjectInfo(name, req.objInfo),
      options: req.options,
      forceAllowCreate: false,
      ...(updateValidation === undefined
        ? {}
        : {
            updateValidation: (c: RequestContext, obj: KubeObject, old: KubeObject) =>
              updateValidation(c, this.scaleOf(obj as T), this.scaleOf(old as T)),
          }),
    });
    return { object: this.scaleOf(object), created: false };
  }

  convertToTable(
    ctx: RequestContext,
    obj: KubeObject | KubeList,
    opts: { includeObject?: 'None' | 'Object' | 'Metadata' },
  ): Table {
    return scaleTableConvertor.convertToTable(ctx, obj, opts);
  }

  /** scaleUpdatedObjectInfo: the request's Scale from the parent's, then replicas and resourceVersion into the parent. */
  #updatedObjectInfo(name: string, inner: UpdatedObjectInfo): UpdatedObjectInfo {
    return {
      preconditions: () => inner.preconditions(),
      updatedObject: async (ctx, old) => {
        const parent = old as T | null;
        if (parent === null || (parent.metadata?.resourceVersion ?? '') === '')
          throw newNotFound(this.#scaleResource, name);
        const owners = this.#opts.replicasOwners;
        const parentEntries = parent.metadata?.managedFields;
        const parts = this.#opts.toScale(parent);
        const oldScale = this.scaleOf(parent, parts);
        const missingAt = parts.missingReplicasAt;
        if (missingAt !== undefined) (oldScale.spec ??= {}).replicas = unsetReplicas;
        const scaleEntries =
          owners === undefined ? undefined : scaleManagedFields(parentEntries, owners.paths);
        if (scaleEntries !== undefined) (oldScale.metadata ??= {}).managedFields = scaleEntries;
        const scale = (await inner.updatedObject(ctx, oldScale)) as Scale;
        if (missingAt !== undefined && scale.spec?.replicas === unsetReplicas)
          throw newBadRequest(`the spec replicas field ${JSON.stringify(missingAt)} cannot be empty`);
        const errs = validateScale(scale, this.#opts.store.namespaceScoped());
        if (errs.length > 0) throw newInvalid(scaleGroupKind, parent.metadata?.name ?? name, errs);
        const uid = scale.metadata?.uid ?? '';
        const parentUID = parent.metadata?.uid ?? '';
        if (uid !== '' && uid !== parentUID) {
          throw newConflict(
            this.#scaleResource,
            name,
            `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${parentUID}`,
          );
        }
        const next = this.#opts.applyScale(parent, scale.spec?.replicas ?? 0);
        const meta = (next.metadata ??= {});
        // The Scale's resourceVersion is the precondition of the write; none makes it unconditional
        // (or, for a custom resource, conditional on the parent as read).
        const rv = scale.metadata?.resourceVersion ?? '';
        if (rv !== '') meta.resourceVersion = rv;
        else if (this.#opts.keepsParentResourceVersion !== true) delete meta.resourceVersion;
        if (owners !== undefined) {
          const entries = parentManagedFields(parentEntries, scale.metadata?.managedFields, owners);
          if (entries === undefined) delete meta.managedFields;
          else meta.managedFields = entries;
        }
        return next;
      },
    };
  }
}
