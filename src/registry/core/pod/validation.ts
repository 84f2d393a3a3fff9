// Pod validation, the common subset of ValidatePod / ValidatePodUpdate / ValidatePodStatusUpdate
// (pkg/apis/core/validation/validation.go).
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { keepOn } from '../../../storage/kept-on.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { validateContainers, validateInitContainers } from './validation/containers.js';
import { validateHostNetworkPorts } from './validation/ports.js';
import { validatePodSpecFields } from './validation/spec-fields.js';
import { validateVolumes } from './validation/volumes.js';

/** ValidatePodSpec: volumes, then every kind of container, then the pod-level fields. */
export function validatePodSpec(spec: PodSpec | undefined, path: FieldPath, podName = ''): ErrorList {
  const s: PodSpec = spec ?? { containers: [] };
  const volumes = validateVolumes(s.volumes, path.child('volumes'), podName);
  const containers = (s as Partial<PodSpec>).containers ?? [];
  return [
    ...volumes.errs,
    ...validateContainers(containers, {
      volumes: volumes.names,
      path: path.child('containers'),
      grace: s.terminationGracePeriodSeconds,
    }),
    ...validateInitContainers(s.initContainers, {
      regular: containers,
      volumes: volumes.names,
      path: path.child('initContainers'),
      grace: s.terminationGracePeriodSeconds,
    }),
    ...(s.hostNetwork === true ? validateHostNetworkPorts(containers, path.child('containers')) : []),
    ...validatePodSpecFields(s, path),
  ];
}

/**
 * validateContainersOnlyForPod: a pod's image may not have surrounding spaces (a template's may, as
 * some tools put " " there to fill in later).
 */
function validateImagesOnlyForPod(containers: readonly Container[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  (containers ?? []).forEach((c, i) => {
    const image = c.image ?? '';
    if (image !== image.trim())
      errs.push(
        FieldError.invalid(
          path.index(i).child('image'),
          image,
          'must not have leading or trailing whitespace',
        ),
      );
  });
  return errs;
}

// A spec found valid is marked with the pod name it was validated for. The registry gives an update
// the live object's own spec wherever the request left it equal (shareUnchangedContent), and nothing
// changes a live object's spec in place (docs/architecture.md: checked by checkSharing), so an update
// that only relabels a pod, or touches its metadata, finds the mark on the live spec and does not
// walk it again. kube validates it every time, with the same outcome: the spec and the name are all
// this validation reads. A live spec decoded anew (another process wrote it, or it was read from the
// cache's bytes) has no mark and is validated in full; a create never trusts a mark.
const validFor: unique symbol = Symbol('pod spec valid for');

interface MarkedSpec {
  [validFor]?: string;
}

/** validatePodMetadataAndSpec without the metadata: the spec, and what only pods (not templates) must meet. */
function validatePodSpecOfPod(spec: PodSpec | undefined, podName: string): ErrorList {
  const path = FieldPath.of('spec');
  const errs = [
    ...validatePodSpec(spec, path, podName),
    ...validateImagesOnlyForPod(spec?.containers, path.child('containers')),
    ...validateImagesOnlyForPod(spec?.initContainers, path.child('initContainers')),
  ];
  if (errs.length === 0 && spec !== undefined) keepOn(spec, validFor, podName);
  return errs;
}

/** ValidatePodCreate: meta and spec, and no ephemeral containers yet. */
export function validatePod(pod: Pod): ErrorList {
  const errs = validateCoreObjectMeta(pod.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
  errs.push(...validatePodSpecOfPod(pod.spec, pod.metadata?.name ?? ''));
  if ((pod.spec?.ephemeralContainers ?? []).length > 0)
    errs.push(FieldError.forbidden(FieldPath.of('spec', 'ephemeralContainers'), 'cannot be set on create'));
  return errs;
}

/** The fields ValidatePodUpdate lets change, in kube's words. */
const updatableFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** The new spec with every updatable field taken from the old one: equal to it unless forbidden fields moved. */
function mungedSpec(spec: PodSpec, old: PodSpec): PodSpec {
  const images = (cs: Container[] | undefined, olds: Container[] | undefined): Container[] | undefined =>
    cs?.map((c, i) => {
      const prior = olds?.[i];
      return prior === undefined ? c : { ...c, image: prior.image ?? '' };
    });
  const out: PodSpec = { ...spec, containers: images(spec.containers, old.containers) ?? [] };
  const init = images(spec.initContainers, old.initContainers);
  if (init !== undefined) out.initContainers = init;
  if (old.activeDeadlineSeconds !== undefined) out.activeDeadlineSeconds = old.activeDeadlineSeconds;
  else delete out.activeDeadlineSeconds;
  if (old.tolerations !== undefined) out.tolerations = old.tolerations;
  else delete out.tolerations;
  const priorGrace = old.terminationGracePeriodSeconds;
  if (priorGrace !== undefined && priorGrace < 0 && spec.terminationGracePeriodSeconds === 1)
    out.terminationGracePeriodSeconds = priorGrace;
  return out;
}

/** ValidatePodUpdate: meta, spec validity, then only the updatable fields may differ. */
export function validatePodUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  const name = pod.metadata?.name ?? '';
  // The live spec itself: the registry shares it when the request left it equal, so nothing moved.
  if (pod.spec !== undefined && pod.spec === old.spec) {
    if ((pod.spec as MarkedSpec)[validFor] !== name) errs.push(...validatePodSpecOfPod(pod.spec, name));
    return errs;
  }
  errs.push(...validatePodSpecOfPod(pod.spec, name));
  const spec = pod.spec ?? { containers: [] };
  const prior = old.spec ?? { containers: [] };
  const path = FieldPath.of('spec');
  const deadline = spec.activeDeadlineSeconds;
  if (
    prior.activeDeadlineSeconds !== undefined &&
    (deadline === undefined || deadline > prior.activeDeadlineSeconds)
  )
    errs.push(
      FieldError.invalid(
        path.child('activeDeadlineSeconds'),
        deadline ?? null,
        'must be less than or equal to previous value',
      ),
    );
  const oldTolerations = prior.tolerations ?? [];
  if (!oldTolerations.every((t) => (spec.tolerations ?? []).some((n) => jsonEqual(n, t))))
    errs.push(
      FieldError.forbidden(
        path.child('tolerations'),
        'existing toleration can not be modified except its tolerationSeconds',
      ),
    );
  if (spec.containers.length !== prior.containers.length || !jsonEqual(mungedSpec(spec, prior), prior))
    errs.push(
      FieldError.forbidden(path, `pod updates may not change fields other than ${updatableFields.join(',')}`),
    );
  return errs;
}

/** ValidatePodStatusUpdate: meta, and a nominated node name must be a valid name. */
export function validatePodStatusUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  const nominated = pod.status?.nominatedNodeName ?? '';
  if (nominated !== '')
    for (const msg of nameIsDNSSubdomain(nominated, false))
      errs.push(FieldError.invalid(FieldPath.of('status', 'nominatedNodeName'), nominated, msg));
  return errs;
}
