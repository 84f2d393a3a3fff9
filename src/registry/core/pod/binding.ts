// pods/binding (BindingREST in pkg/registry/core/pod/storage/storage.go): sets spec.nodeName once,
// copies the binding's annotations and marks the pod scheduled.
import type { Binding } from '../../../api/core/v1/binding.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { KubeObject } from '../../../api/meta.js';
import { newBadRequest, newConflict, newInvalid } from '../../../machinery/errors/index.js';
import { FieldError, FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import { nowTimestamp } from '../../generic/object-meta.js';
import type { Store } from '../../generic/store.js';
import type {
  Creater,
  NamedCreater,
  Scoper,
  SingularNameProvider,
  Storage,
  ValidateObjectFunc,
} from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { CreateOptions } from '../../rest/options.js';
import type { UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { podStrategy } from './strategy.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

const bindingResource = { group: '', resource: 'pods/binding' } as const;

/** ValidatePodBinding. */
export function validatePodBinding(binding: Binding): ErrorList {
  const errs: ErrorList = [];
  const kind = binding.target.kind ?? '';
  if (kind !== '' && kind !== 'Node')
    errs.push(FieldError.notSupported(FieldPath.of('target', 'kind'), kind, ['Node', '<empty>']));
  if ((binding.target.name ?? '') === '') errs.push(FieldError.required(FieldPath.of('target', 'name')));
  return errs;
}

/** The binding writes spec.nodeName itself; the pod update rules do not apply to it. */
const bindingUpdateStrategy = {
  ...podStrategy,
  prepareForUpdate: () => undefined,
  keepsGeneration: true,
  validateUpdate: (_ctx, pod, old) => validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {}),
} satisfies UpdateStrategy<Pod>;

/** `nowMs`: the server's clock, which stamps the PodScheduled condition. */
function assign(pod: Pod, binding: Binding, nowMs: number): Pod {
  const name = pod.metadata?.name ?? '';
  if ((pod.metadata?.deletionTimestamp ?? '') !== '')
    throw newConflict(bindingResource, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  const node = pod.spec?.nodeName ?? '';
  if (node !== '')
    throw newConflict(bindingResource, name, `pod ${name} is already assigned to node "${node}"`);
  const meta = (pod.metadata ??= {});
  const annotations = binding.metadata?.annotations;
  if (annotations !== undefined) meta.annotations = { ...meta.annotations, ...annotations };
  pod.spec = { ...(pod.spec ?? { containers: [] }), nodeName: binding.target.name ?? '' };
  // UpdatePodCondition: a PodScheduled condition already there (Unschedulable, SchedulingGated) is
  // replaced where it stands, keeping its transition time when it was True already.
  const conditions = [...(pod.status?.conditions ?? [])];
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = conditions[at];
  const lastTransitionTime =
    old?.status === 'True' && old.lastTransitionTime !== undefined
      ? old.lastTransitionTime
      : nowTimestamp(nowMs);
  const scheduled = { type: 'PodScheduled', status: 'True', lastTransitionTime };
  if (at === -1) conditions.push(scheduled);
  else conditions[at] = scheduled;
  pod.status = { ...pod.status, conditions };
  return pod;
}

/** POST pods/<name>/binding: a NamedCreater; the Binding must name the pod of the URL. */
export class BindingREST implements Storage, NamedCreater {
  readonly #store: Store<Pod>;

  constructor(store: Store<Pod>) {
    this.#store = store.withStrategies({ updateStrategy: bindingUpdateStrategy });
  }
  newObject(): Binding {
    return { apiVersion: 'v1', kind: 'Binding', target: {} };
  }
  destroy(): void {
    // Shared with the pods storage, which releases it.
  }
  async createNamed(
    ctx: RequestContext,
    name: string,
    req: { obj: KubeObject; options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    const binding = req.obj as Binding;
    if (name !== (binding.metadata?.name ?? ''))
      throw newBadRequest('name in URL does not match name in Binding object');
    // A body without a target still gets kube's field errors rather than a crash.
    if ((binding as Partial<Binding>).target === undefined) binding.target = {};
    const errs = validatePodBinding(binding);
    if (errs.length > 0) throw newInvalid({ group: '', kind: 'Binding' }, name, errs);
    if (req.validate !== undefined) await req.validate(ctx, binding);
    await this.#store.update(ctx, name, {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_ctx, old) =>
          Promise.resolve(assign(deepCopyJSON(old ?? {}) as Pod, binding, this.#store.core.clock.now())),
      },
      options: req.options.dryRun !== undefined ? { dryRun: req.options.dryRun } : {},
    });
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  }
}

/**
 * The `bindings` resource (LegacyBindingREST of pkg/registry/core/pod/storage): `POST
 * /api/v1/namespaces/<ns>/bindings` binds the pod the Binding's metadata.name names.
 */
export class LegacyBindingREST implements Storage, Creater, Scoper, SingularNameProvider {
  readonly #binding: BindingREST;

  constructor(binding: BindingREST) {
    this.#binding = binding;
  }
  newObject(): Binding {
    return this.#binding.newObject();
  }
  namespaceScoped(): boolean {
    return true;
  }
  singularName(): string {
    return 'binding';
  }
  destroy(): void {
    // Shared with the pods storage, which releases it.
  }
  create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    return this.#binding.createNamed(ctx, obj.metadata?.name ?? '', { obj, ...opts });
  }
}
