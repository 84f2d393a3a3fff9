// pods/ephemeralcontainers (EphemeralContainersREST in pkg/registry/core/pod/storage/storage.go
// with podEphemeralContainersStrategy): get the pod; update or patch only its
// spec.ephemeralContainers, which may be added to but never changed or removed.
import type { EphemeralContainer } from '../../../api/core/v1/ephemeral-container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import { FieldError, FieldPath, goQuote, type ErrorList } from '../../../machinery/validation/index.js';
import { jsonEqual, resetObjectMetaForStatus } from '../../generic/object-meta.js';
import type { Store } from '../../generic/store.js';
import type { Getter, Storage, UpdateRequest, Updater } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { GetOptions } from '../../rest/options.js';
import type { UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { defaultPullPolicy } from './defaults.js';
import { podStrategy } from './strategy.js';
import { isStaticPod, validateUpdatedPodSpec } from './validation.js';
import {
  validatePodAnnotationUpdates,
  hadInvalidDeletionCost,
  validatePodSpecificAnnotations,
} from './validation/pod-annotations.js';

function defaultEphemeralContainer(c: EphemeralContainer): void {
  c.imagePullPolicy ??= defaultPullPolicy(c.image ?? '');
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
}

/**
 * ValidatePodEphemeralContainersUpdate: the whole new pod is valid (its annotations checked twice,
 * as kube checks them with the annotation changes), a static pod takes none, and
 * existing ephemeral containers may not be removed or changed. (kube follows "may not be changed"
 * with a go-cmp diff of the container, which Capstan does not render.)
 */
export function validateEphemeralContainersUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  errs.push(
    ...validatePodSpecificAnnotations(pod.metadata?.annotations, pod.spec, {
      allowInvalidDeletionCost: hadInvalidDeletionCost(old.metadata?.annotations),
    }),
  );
  errs.push(...validateUpdatedPodSpec(pod, old));
  errs.push(...validatePodAnnotationUpdates(pod, old));
  if (isStaticPod(old))
    // kube's field.NewPath(""): a root without a name, printed as a subscript, `[]`.
    return [FieldError.forbidden(FieldPath.of(''), 'static pods do not support ephemeral containers')];
  const path = FieldPath.of('spec', 'ephemeralContainers');
  const current = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const prior of old.spec?.ephemeralContainers ?? []) {
    const now = current.get(prior.name);
    if (now === undefined)
      errs.push(
        FieldError.forbidden(
          path,
          `existing ephemeral containers ${goQuote(prior.name)} may not be removed\n`,
        ),
      );
    else if (!jsonEqual(now, prior))
      errs.push(
        FieldError.forbidden(
          path,
          `existing ephemeral containers ${goQuote(prior.name)} may not be changed\n`,
        ),
      );
  }
  return errs;
}

/** The stored pod with only the new ephemeral containers (dropNonEphemeralContainerUpdates). */
export const ephemeralContainersStrategy = {
  ...podStrategy,
  prepareForUpdate: (_ctx, pod, old) => {
    const ephemeral = pod.spec?.ephemeralContainers ?? [];
    for (const c of ephemeral) defaultEphemeralContainer(c);
    pod.spec = { ...(old.spec ?? { containers: [] }), ephemeralContainers: ephemeral };
    if (ephemeral.length === 0) delete pod.spec.ephemeralContainers;
    if (old.status !== undefined) pod.status = old.status;
    else delete pod.status;
    resetObjectMetaForStatus((pod.metadata ??= {}), old.metadata ?? {});
  },
  validateUpdate: (_ctx, pod, old) => validateEphemeralContainersUpdate(pod, old),
} satisfies UpdateStrategy<Pod>;

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata' };

/** GET, PUT and PATCH of pods/<name>/ephemeralcontainers; the pod store is shared. */
export class EphemeralContainersREST implements Storage, Getter, Updater {
  readonly #store: Store<Pod>;

  constructor(store: Store<Pod>) {
    this.#store = store.withStrategies({ updateStrategy: ephemeralContainersStrategy });
  }
  newObject(): Pod {
    return this.#store.newObject();
  }
  destroy(): void {
    // Shared with the pods storage, which releases it.
  }
  get(ctx: RequestContext, name: string, options: GetOptions): Promise<Pod> {
    return this.#store.get(ctx, name, options);
  }
  update(ctx: RequestContext, name: string, req: UpdateRequest): Promise<{ object: Pod; created: boolean }> {
    return this.#store.update(ctx, name, { ...req, forceAllowCreate: false });
  }
  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return this.#store.convertToTable(ctx, obj, opts);
  }
}
