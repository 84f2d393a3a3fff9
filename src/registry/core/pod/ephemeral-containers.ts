// pods/ephemeralcontainers (EphemeralContainersREST in pkg/registry/core/pod/storage/storage.go
// with podEphemeralContainersStrategy): get the pod; update or patch only its
// spec.ephemeralContainers, which may be added to but never changed or removed.
import type { EphemeralContainer } from '../../../api/core/v1/ephemeral-container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Label,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import type { Store } from '../../generic/store.js';
import type { Getter, Storage, UpdateRequest, Updater } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { GetOptions } from '../../rest/options.js';
import type { UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { defaultPullPolicy } from './defaults.js';
import { podStrategy } from './strategy.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const notForEphemeral = 'cannot be set for an Ephemeral Container';
// Container fields outside kube's allowedEphemeralContainerFields.
const forbiddenFields = [
  'ports',
  'resources',
  'resizePolicy',
  'lifecycle',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'restartPolicy',
];

const isZero = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (typeof v === 'object' && Object.values(v).every(isZero)) ||
  v === '' ||
  v === false;

function defaultEphemeralContainer(c: EphemeralContainer): void {
  c.imagePullPolicy ??= defaultPullPolicy(c.image ?? '');
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
}

/** validateEphemeralContainers: names unique across every container, a real target, only allowed fields. */
export function validateEphemeralContainers(pod: Pod): ErrorList {
  const errs: ErrorList = [];
  const spec = pod.spec ?? { containers: [] };
  const others = new Set([...(spec.initContainers ?? []), ...spec.containers].map((c) => c.name));
  const all = new Set(others);
  const path = FieldPath.of('spec', 'ephemeralContainers');
  (spec.ephemeralContainers ?? []).forEach((ec, i) => {
    const p = path.index(i);
    const name = ec.name;
    if (name === '') errs.push(FieldError.required(p.child('name')));
    else for (const msg of isDNS1123Label(name)) errs.push(FieldError.invalid(p.child('name'), name, msg));
    if ((ec.image ?? '').trim() === '') errs.push(FieldError.required(p.child('image')));
    const pull = ec.imagePullPolicy ?? '';
    if (pull === '') errs.push(FieldError.required(p.child('imagePullPolicy')));
    else if (!pullPolicies.includes(pull))
      errs.push(FieldError.notSupported(p.child('imagePullPolicy'), pull, pullPolicies));
    if (name !== '' && all.has(name)) errs.push(FieldError.duplicate(p.child('name'), name));
    all.add(name);
    const target = ec.targetContainerName ?? '';
    if (target !== '' && !others.has(target))
      errs.push(FieldError.notFound(p.child('targetContainerName'), target));
    const fields = ec as unknown as Record<string, unknown>;
    for (const field of forbiddenFields)
      if (!isZero(fields[field])) errs.push(FieldError.forbidden(p.child(field), notForEphemeral));
    (ec.volumeMounts ?? []).forEach((vm, j) => {
      if ((vm.subPath ?? '') !== '')
        errs.push(FieldError.forbidden(p.child('volumeMounts').index(j).child('subPath'), notForEphemeral));
    });
  });
  return errs;
}

/** ValidatePodEphemeralContainersUpdate: existing ephemeral containers may not be removed or changed. */
export function validateEphemeralContainersUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  if ((old.metadata?.annotations?.['kubernetes.io/config.mirror'] ?? '') !== '')
    return [FieldError.forbidden(undefined, 'static pods do not support ephemeral containers')];
  errs.push(...validateEphemeralContainers(pod));
  const path = FieldPath.of('spec', 'ephemeralContainers');
  const current = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const prior of old.spec?.ephemeralContainers ?? []) {
    const now = current.get(prior.name);
    if (now === undefined)
      errs.push(
        FieldError.forbidden(path, `existing ephemeral containers "${prior.name}" may not be removed\n`),
      );
    else if (!jsonEqual(now, prior))
      errs.push(
        FieldError.forbidden(
          path.child(prior.name),
          `existing ephemeral containers "${prior.name}" may not be changed\n`,
        ),
      );
  }
  return errs;
}

/** The stored pod with only the new ephemeral containers (dropNonEphemeralContainerUpdates). */
export const ephemeralContainersStrategy = {
  ...podStrategy,
  prepareForUpdate: (_ctx, pod, old) => {
    const next = deepCopyJSON(old);
    const meta = (next.metadata ??= {});
    const given = pod.metadata ?? {};
    for (const key of ['name', 'namespace', 'resourceVersion', 'uid', 'managedFields'] as const) {
      if (given[key] !== undefined) Object.assign(meta, { [key]: given[key] });
    }
    const ephemeral = pod.spec?.ephemeralContainers ?? [];
    for (const c of ephemeral) defaultEphemeralContainer(c);
    next.spec = { ...(next.spec ?? { containers: [] }), ephemeralContainers: ephemeral };
    if (ephemeral.length === 0) delete next.spec.ephemeralContainers;
    pod.metadata = meta;
    pod.spec = next.spec;
    if (next.status !== undefined) pod.status = next.status;
    else delete pod.status;
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
