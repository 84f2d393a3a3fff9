// ValidatePodResize (pkg/apis/core/validation/validation.go, kube 1.33): a pods/resize update may
// change only the cpu and memory requests and limits of containers and sidecars, keeping the pod's
// QoS class, never removing a request or limit, and lowering or adding a memory limit only under a
// RestartContainer resize policy.
import type { Container, ResourceRequirements } from '../../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../../api/core/v1/pod.js';
import { FieldError, FieldPath, type ErrorList } from '../../../../machinery/validation/index.js';
import { jsonEqual } from '../../../generic/object-meta.js';
import { validateCoreObjectMetaUpdate } from '../../namespace/finalizer-names.js';
import { computePodQOS } from '../qos.js';
import { compareQuantityText } from '../quantity.js';
import { isStaticPod, validateUpdatedPodSpec } from '../validation.js';
import { hadInvalidDeletionCost, validatePodSpecificAnnotations } from './pod-annotations.js';

const isSidecar = (c: Container): boolean => c.restartPolicy === 'Always';

/** Pod-level `resources` with any request or limit. */
const hasPodLevelResources = (spec: PodSpec | undefined): boolean =>
  Object.keys(spec?.resources?.requests ?? {}).length + Object.keys(spec?.resources?.limits ?? {}).length > 0;

/**
 * isPodResizeRequestSupported: the first running container's status carries `resources` (kubelets
 * with InPlacePodVerticalScaling write them); a pod with no running container is given the benefit.
 */
function resizeSupported(pod: Pod): boolean {
  for (const s of pod.status?.containerStatuses ?? [])
    if (s.state?.running !== undefined) return s.resources !== undefined;
  return true;
}

/** validatePodResizeContainerOrdering: containers are neither added, removed, renamed nor reordered. */
function validateOrdering(spec: PodSpec, old: PodSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  for (const [list, what] of [
    ['containers', 'containers'],
    ['initContainers', 'initContainers'],
  ] as const) {
    const now = spec[list] ?? [];
    const before = old[list] ?? [];
    if (now.length !== before.length) {
      errs.push(FieldError.forbidden(path.child(list), `${what} may not be added or removed on resize`));
      continue;
    }
    before.forEach((c, i) => {
      if (now[i]?.name !== c.name)
        errs.push(
          FieldError.forbidden(
            path.child(list).index(i).child('name'),
            `${what} may not be renamed or reordered on resize`,
          ),
        );
    });
  }
  return errs;
}

/** More names in the old list than the new, or one of the old names gone. */
function removed(
  now: Record<string, string> | undefined,
  before: Record<string, string> | undefined,
): boolean {
  const names = Object.keys(before ?? {});
  if (names.length > Object.keys(now ?? {}).length) return true;
  return names.some((n) => now?.[n] === undefined);
}

/** validateContainerResize: no request or limit removed; memory limits lowered or added only with a restart. */
function validateContainerResize(c: Container, old: Container, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const now = c.resources ?? {};
  const before = old.resources ?? {};
  if (removed(now.requests, before.requests))
    errs.push(FieldError.forbidden(path.child('requests'), 'resource requests cannot be removed'));
  if (removed(now.limits, before.limits))
    errs.push(FieldError.forbidden(path.child('limits'), 'resource limits cannot be removed'));
  const memoryPolicy = c.resizePolicy?.find((p) => p.resourceName === 'memory')?.restartPolicy ?? '';
  if (memoryPolicy !== 'NotRequired' && memoryPolicy !== '') return errs;
  const limit = now.limits?.memory;
  const prior = before.limits?.memory;
  const limitPath = path.child('limits').key('memory');
  if (limit !== undefined && prior !== undefined) {
    if (compareQuantityText(limit, prior) === -1)
      errs.push(
        FieldError.forbidden(
          limitPath,
          'memory limits cannot be decreased unless resizePolicy is RestartContainer',
        ),
      );
  } else if (limit !== undefined)
    errs.push(
      FieldError.forbidden(
        limitPath,
        'memory limits cannot be added unless resizePolicy is RestartContainer',
      ),
    );
  return errs;
}

/**
 * dropCPUMemoryResourcesFromContainer: the container with its cpu and memory requests and limits put
 * back as the old one had them (a list the old container lacked dropped whole).
 */
function withOldCPUMemory(c: Container, old: Container): Container {
  const munge = (
    list: Record<string, string> | undefined,
    prior: Record<string, string> | undefined,
  ): Record<string, string> | undefined => {
    if (prior === undefined) return undefined;
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(list ?? {}))
      if (name !== 'cpu' && name !== 'memory') out[name] = value;
    if (prior.cpu !== undefined) out.cpu = prior.cpu;
    if (prior.memory !== undefined) out.memory = prior.memory;
    return out;
  };
  const resources: ResourceRequirements = {};
  const limits = munge(c.resources?.limits, old.resources?.limits);
  const requests = munge(c.resources?.requests, old.resources?.requests);
  if (limits !== undefined) resources.limits = limits;
  if (requests !== undefined) resources.requests = requests;
  return { ...c, resources };
}

/** Resource lists compared as Go's semantic equality compares them: an empty list is no list. */
function sameContainer(c: Container, old: Container): boolean {
  const norm = (x: Container): Container => {
    const r = x.resources ?? {};
    const resources: ResourceRequirements = { ...r };
    if (Object.keys(r.limits ?? {}).length === 0) delete resources.limits;
    if (Object.keys(r.requests ?? {}).length === 0) delete resources.requests;
    const out = { ...x, resources };
    if (Object.keys(resources).length === 0) delete (out as { resources?: unknown }).resources;
    return out;
  };
  return jsonEqual(norm(c), norm(old));
}

/** ValidatePodResize, after the strategy kept only the containers' resources and resize policies. */
export function validatePodResize(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  errs.push(
    ...validatePodSpecificAnnotations(pod.metadata?.annotations, pod.spec, {
      allowInvalidDeletionCost: hadInvalidDeletionCost(old.metadata?.annotations),
    }),
  );
  errs.push(...validateUpdatedPodSpec(pod, old));
  // field.NewPath("") prints as `[]`.
  const whole = FieldPath.of('');
  if (hasPodLevelResources(old.spec) || hasPodLevelResources(pod.spec))
    return [FieldError.forbidden(whole, 'pods with pod-level resources cannot be resized')];
  if (isStaticPod(old)) return [FieldError.forbidden(whole, 'static pods cannot be resized')];
  if (old.spec?.os?.name === 'windows')
    return [FieldError.forbidden(whole, 'windows pods cannot be resized')];

  const specPath = FieldPath.of('spec');
  const spec = pod.spec ?? { containers: [] };
  const oldSpec = old.spec ?? { containers: [] };
  const oldQOS = old.status?.qosClass ?? computePodQOS(old.spec);
  if (oldQOS !== computePodQOS(pod.spec))
    errs.push(
      FieldError.invalid(
        specPath,
        pod.status?.qosClass ?? '',
        'Pod QOS Class may not change as a result of resizing',
      ),
    );
  if (!resizeSupported(old))
    errs.push(FieldError.forbidden(specPath, 'Pod running on node without support for resize'));
  const ordering = validateOrdering(spec, oldSpec, specPath);
  if (ordering.length > 0) {
    errs.push(...ordering);
    return errs;
  }

  const inits = spec.initContainers ?? [];
  const oldInits = oldSpec.initContainers ?? [];
  oldInits.forEach((c, i) => {
    const now = inits[i];
    if (now !== undefined && isSidecar(c))
      errs.push(
        ...validateContainerResize(now, c, specPath.child('initContainers').index(i).child('resources')),
      );
  });
  spec.containers.forEach((c, i) => {
    const prior = oldSpec.containers[i];
    if (prior !== undefined)
      errs.push(
        ...validateContainerResize(c, prior, specPath.child('containers').index(i).child('resources')),
      );
  });

  const containers = spec.containers.map((c, i) => {
    const prior = oldSpec.containers[i] ?? c;
    const munged = withOldCPUMemory(c, prior);
    if (!sameContainer(munged, prior))
      errs.push(FieldError.forbidden(specPath, 'only cpu and memory resources are mutable'));
    return munged;
  });
  const initContainers = inits.map((c, i) => {
    const prior = oldInits[i] ?? c;
    if (!isSidecar(c)) {
      if (!sameContainer(c, prior))
        errs.push(FieldError.forbidden(specPath, 'resources for non-sidecar init containers are immutable'));
      return c;
    }
    const munged = withOldCPUMemory(c, prior);
    if (!sameContainer(munged, prior))
      errs.push(
        FieldError.forbidden(specPath, 'only cpu and memory resources for sidecar containers are mutable'),
      );
    return munged;
  });
  if (errs.length > 0) return errs;
  const munged: PodSpec = { ...spec, containers };
  if (spec.initContainers !== undefined) munged.initContainers = initContainers;
  const same =
    jsonEqual(
      { ...munged, containers: [], initContainers: [] },
      { ...oldSpec, containers: [], initContainers: [] },
    ) &&
    containers.every(
      (c, i) => oldSpec.containers[i] !== undefined && sameContainer(c, oldSpec.containers[i]),
    ) &&
    initContainers.every((c, i) => oldInits[i] !== undefined && sameContainer(c, oldInits[i]));
  if (!same) errs.push(FieldError.forbidden(specPath, 'only cpu and memory resources are mutable'));
  return errs;
}
