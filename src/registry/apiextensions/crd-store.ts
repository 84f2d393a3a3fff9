// The CustomResourceDefinition store (apiextensions-apiserver's customresourcedefinition REST).
// Deleting: the first delete adds the customresourcecleanup finalizer and a Terminating condition
// and marks the CRD deleted; the CRD goes once whoever serves its resources has deleted them all
// and removed the finalizer (src/controlplane/customresources). A later delete is the store's own.
// Creating and updating load the CEL library first when the CRD has validation rules, which the
// synchronous CRD validation then compiles.
// Names: kube's naming and establishing controllers set status.acceptedNames, NamesAccepted and
// Established moments after a write; here a create or update of a CRD takes that step itself, after
// the strategy and before validating admission, against the CRDs of its group read then (naming.ts),
// so a created CRD answers with its conditions and its resources can be used at once. The writes of
// one group take turns, so two of them cannot both take a name. `reconsiderNames` is the controller's
// sync, for a CRD that waits for names another CRD held or is not Established yet
// (src/controlplane/customresources).
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../api/meta.js';
import type {
  UpdatedObjectInfo,
  UpdateRequest,
  ValidateObjectFunc,
  ValidateObjectUpdateFunc,
} from '../rest/capabilities.js';
import { internalContext, type RequestContext } from '../rest/context.js';
import type { CreateOptions, DeleteOptions } from '../rest/options.js';
import { isDryRun } from '../rest/options.js';
import { Store } from '../generic/store.js';
import type { StoreCore } from '../generic/store-core.js';
import { setCRDCondition } from './conditions.js';
import {
  acceptNames,
  establish,
  nameAndEstablish,
  namesInUse,
  waitingForNames,
  waitingToBeEstablished,
  type NamesInUse,
} from './naming.js';
import { crdStatusStrategy } from './strategy.js';
import { preloadCelFor } from './customresource/cel/compile.js';
import { isStatusError } from '../../machinery/errors/index.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { nowRFC3339 } from '../../machinery/time/rfc3339.js';

export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

const now = nowRFC3339;

/** The group of a CRD named `<plural>.<group>` (what kube's naming controller splits off). */
const groupOfName = (name: string): string => name.slice(name.indexOf('.') + 1);

export class CustomResourceDefinitionStore extends Store<CustomResourceDefinition> {
  /** The last write of each group that names CRDs: the next one waits for it. */
  readonly #turns = new Map<string, Promise<void>>();
  readonly #status: Store<CustomResourceDefinition>;

  constructor(core: StoreCore<CustomResourceDefinition>) {
    super(core);
    this.#status = this.withStrategies({ updateStrategy: crdStatusStrategy });
  }

  // The synchronous CRD validation compiles CEL rules with a library loaded here, on first need.
  override async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<CustomResourceDefinition> {
    await preloadCelFor(obj);
    const validate = this.#namingThen(opts.validate);
    return this.#inTurn(groupOfName(obj.metadata?.name ?? ''), () =>
      super.create(ctx, obj, { ...opts, validate }),
    );
  }

  override update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: CustomResourceDefinition; created: boolean }> {
    const { objInfo, updateValidation } = req;
    const loading: UpdatedObjectInfo = {
      preconditions: () => objInfo.preconditions(),
      updatedObject: async (c, old) => {
        const obj = await objInfo.updatedObject(c, old);
        await preloadCelFor(obj);
        return obj;
      },
    };
    const namingUpdate: ValidateObjectUpdateFunc = async (c, obj, old) => {
      await this.#acceptNames(c, obj as CustomResourceDefinition);
      await updateValidation?.(c, obj, old);
    };
    return this.#inTurn(groupOfName(name), () =>
      super.update(ctx, name, {
        ...req,
        objInfo: loading,
        createValidation: this.#namingThen(req.createValidation),
        updateValidation: namingUpdate,
      }),
    );
  }

  /**
   * The naming controller's sync of one CRD: when it does not serve all the names it asks for, takes
   * those its group has freed, through the status. Returns whether its status changed.
   */
  reconsiderNames(ctx: RequestContext, name: string): Promise<boolean> {
    return this.#inTurn(groupOfName(name), async () => {
      let crd: CustomResourceDefinition;
      try {
        crd = await this.get(ctx, name, {});
      } catch (err) {
        if (isStatusError(err) && err.status.code === 404) return false;
        throw err;
      }
      if (!waitingForNames(crd) && !waitingToBeEstablished(crd)) return false;
      const inUse = await this.#namesInUse(ctx, crd.spec.group);
      if (!nameAndEstablish(crd, inUse, now(this.core.clock.now()))) return false;
      await this.#status.update(ctx, name, {
        options: {},
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old) => {
            const next = old as CustomResourceDefinition;
            nameAndEstablish(next, inUse, now(this.core.clock.now()));
            return Promise.resolve(next);
          },
        },
      });
      return true;
    });
  }

  /** Runs `step` once the writes of `group` before it are done. */
  #inTurn<R>(group: string, step: () => Promise<R>): Promise<R> {
    const before = this.#turns.get(group) ?? Promise.resolve();
    const run = before.then(step);
    const done = run.then(
      () => undefined,
      () => undefined,
    );
    this.#turns.set(group, done);
    void done.then(() => {
      if (this.#turns.get(group) === done) this.#turns.delete(group);
    });
    return run;
  }

  async #namesInUse(ctx: RequestContext, group: string): Promise<NamesInUse> {
    const all = await this.list(internalContext({ parent: ctx }), { readOnly: true });
    return namesInUse(all.items, group);
  }

  /** The naming and establishing controllers' step; the group's names are read only for naming. */
  async #acceptNames(ctx: RequestContext, crd: CustomResourceDefinition): Promise<void> {
    if (!waitingForNames(crd)) {
      establish(crd, now(this.core.clock.now()));
      return;
    }
    acceptNames(crd, await this.#namesInUse(ctx, crd.spec.group), now(this.core.clock.now()));
  }

  /** The create validation with the naming step before it. */
  #namingThen(validate: ValidateObjectFunc | undefined): ValidateObjectFunc {
    return async (c, obj) => {
      await this.#acceptNames(c, obj as CustomResourceDefinition);
      await validate?.(c, obj);
    };
  }

  override async delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    const current = await this.get(ctx, name, {});
    if (current.metadata?.deletionTimestamp !== undefined) return super.delete(ctx, name, opts);
    const { preconditions } = opts.options;
    const out = await this.core.storage.guaranteedUpdate(this.core.keyFunc(ctx, name), {
      dryRun: isDryRun(opts.options.dryRun),
      ...(preconditions === undefined ? {} : { preconditions }),
      tryUpdate: async (existing) => {
        if (existing === null) throw new Error(`customresourcedefinition ${name} vanished`);
        const crd = deepCopyJSON(existing);
        await opts.validate?.(ctx, crd);
        const meta = (crd.metadata ??= {});
        meta.deletionTimestamp ??= now(this.core.clock.now());
        meta.deletionGracePeriodSeconds ??= 0;
        const finalizers = (meta.finalizers ??= []);
        if (!finalizers.includes(customResourceCleanupFinalizer))
          finalizers.push(customResourceCleanupFinalizer);
        setCRDCondition(crd, {
          type: 'Terminating',
          status: 'True',
          lastTransitionTime: now(this.core.clock.now()),
          reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        });
        return crd;
      },
    });
    return { object: out, deleted: false };
  }
}
