// Pod validation, the common subset of ValidatePod / ValidatePodUpdate / ValidatePodStatusUpdate
// (pkg/apis/core/validation/validation.go).
import type { Container } from '../../../api/core/v1/container.js';
import { mirrorPodAnnotation, type Pod, type PodSpec, type Toleration } from '../../../api/core/v1/pod.js';
import {
  FieldError,
  FieldPath,
  inclusiveRangeError,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { keepOn } from '../../../storage/kept-on.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { validateContainers, validateInitContainers } from './validation/containers.js';
import { validateHostNetworkPorts } from './validation/ports.js';
import { hasHostSysctl } from './validation/pod-security-context.js';
import { validatePodSpecFields, validateTolerations, type PodSpecOptions } from './validation/spec-fields.js';
import { validateVolumes } from './validation/volumes.js';
export { validatePodStatusUpdate } from './validation/status-update.js';
import { validateEphemeralContainers } from './validation/ephemeral-container-fields.js';
import { hasInvalidAffinitySelectorValue } from './validation/affinity.js';
import {
  hasNonLocalProjectedTokenPath,
  validateTokenProjectionsHaveAccount,
} from './validation/projected-volumes.js';
import { hasInvalidSpreadSelector } from './validation/topology-spread.js';
import { podClaimNames, validatePodResourceClaims } from './validation/resource-claims.js';
import {
  hadInvalidDeletionCost,
  validatePodAnnotationUpdates,
  validatePodSpecificAnnotations,
  validateSecurityAnnotationsMatchFields,
} from './validation/pod-annotations.js';

/** A static pod's mirror in the API: the kubelet annotates it with the file's hash. */
export const isStaticPod = (pod: Pod): boolean =>
  pod.metadata?.annotations?.[mirrorPodAnnotation] !== undefined;

/** What a pod's spec validation depends on beyond the spec. */
export interface PodSpecValidation extends PodSpecOptions {
  /** The pod's name, for the claims of its generic ephemeral volumes. */
  readonly podName?: string;
  /** The pod is a static pod's mirror (its annotation), which may not claim resources. */
  readonly staticPod?: boolean;
  /** The old pod already projected a token outside its volume (AllowNonLocalProjectedTokenPath). */
  readonly allowNonLocalProjectedTokenPath?: boolean;
}

/**
 * What an update of `old` may keep that a create may not (kube's GetValidationOptionsFromPodSpecAndMeta):
 * each option is on only when the old pod already had what it allows.
 */
function updateOptions(name: string, old: PodSpec | undefined, staticPod: boolean): PodSpecValidation {
  return {
    podName: name,
    staticPod,
    allowHostSysctls: hasHostSysctl(old),
    allowNonLocalProjectedTokenPath: hasNonLocalProjectedTokenPath(old),
    allowInvalidAffinitySelectorValue: hasInvalidAffinitySelectorValue(old?.affinity),
    allowInvalidSpreadSelector: hasInvalidSpreadSelector(old),
    allowAnySELinuxChangePolicy: old?.securityContext?.seLinuxChangePolicy != null,
  };
}

/** Whether the options relax a check, so that a spec they pass may not pass a strict validation. */
const relaxes = (opts: PodSpecValidation): boolean =>
  opts.allowHostSysctls === true ||
  opts.allowNonLocalProjectedTokenPath === true ||
  opts.allowInvalidAffinitySelectorValue === true ||
  opts.allowInvalidSpreadSelector === true ||
  opts.allowAnySELinuxChangePolicy === true;

/** ValidatePodSpec: volumes, resource claims, then every kind of container, then the pod-level fields. */
export function validatePodSpec(
  spec: PodSpec | undefined,
  path: FieldPath,
  opts: PodSpecValidation = {},
): ErrorList {
  const s: PodSpec = spec ?? { containers: [] };
  const volumes = validateVolumes(s.volumes, path.child('volumes'), {
    podName: opts.podName ?? '',
    allowNonLocalProjectedTokenPath: opts.allowNonLocalProjectedTokenPath === true,
  });
  const containers = (s as Partial<PodSpec>).containers ?? [];
  // Plain pushes and literals: spreading objects and arrays here cost as much as the checks.
  const errs = volumes.errs;
  const grace = s.terminationGracePeriodSeconds;
  const hostUsers = s.hostUsers !== false;
  const claimNames = podClaimNames(s.resourceClaims);
  if (s.resourceClaims != null)
    errs.push(
      ...validatePodResourceClaims(s.resourceClaims, path.child('resourceClaims'), opts.staticPod === true),
    );
  errs.push(
    ...validateContainers(containers, {
      volumes: volumes.names,
      restartPolicy: s.restartPolicy,
      hostUsers,
      claimNames,
      path: path.child('containers'),
      grace,
    }),
  );
  if (s.initContainers !== undefined)
    errs.push(
      ...validateInitContainers(s.initContainers, {
        volumes: volumes.names,
        restartPolicy: s.restartPolicy,
        hostUsers,
        claimNames,
        regular: containers,
        path: path.child('initContainers'),
        grace,
      }),
    );
  if (s.ephemeralContainers !== undefined)
    errs.push(
      ...validateEphemeralContainers(s, {
        volumes: volumes.names,
        restartPolicy: s.restartPolicy,
        hostUsers,
        claimNames,
        path: path.child('ephemeralContainers'),
      }),
    );
  if (s.hostNetwork === true) errs.push(...validateHostNetworkPorts(containers, path.child('containers')));
  errs.push(...validatePodSpecFields(s, path, opts));
  return errs;
}

/**
 * validateContainersOnlyForPod: a pod's image may not have surrounding spaces (a template's may, as
 * some tools put " " there to fill in later).
 */
export function validateImagesOnlyForPod(
  containers: readonly Container[] | undefined,
  path: FieldPath,
): ErrorList {
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

/**
 * validatePodMetadataAndSpec without the metadata: the spec, then what only pods (not templates) must
 * meet: a service account for projected tokens, images without surrounding spaces.
 */
function validatePodSpecOfPod(spec: PodSpec | undefined, opts: PodSpecValidation): ErrorList {
  const path = FieldPath.of('spec');
  const errs = validatePodSpec(spec, path, opts);
  if (spec !== undefined) validateTokenProjectionsHaveAccount(spec, errs);
  errs.push(...validateImagesOnlyForPod(spec?.containers, path.child('containers')));
  errs.push(...validateImagesOnlyForPod(spec?.initContainers, path.child('initContainers')));
  if (errs.length === 0 && spec !== undefined && !relaxes(opts)) keepOn(spec, validFor, opts.podName ?? '');
  return errs;
}

/** ValidatePodCreate: meta and spec, no ephemeral containers yet, and no node while gates remain. */
export function validatePod(pod: Pod): ErrorList {
  const errs = validateCoreObjectMeta(pod.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
  errs.push(...validatePodSpecificAnnotations(pod.metadata?.annotations, pod.spec));
  errs.push(
    ...validatePodSpecOfPod(pod.spec, { podName: pod.metadata?.name ?? '', staticPod: isStaticPod(pod) }),
  );
  const path = FieldPath.of('spec');
  if ((pod.spec?.ephemeralContainers ?? []).length > 0)
    errs.push(FieldError.forbidden(path.child('ephemeralContainers'), 'cannot be set on create'));
  if ((pod.spec?.nodeName ?? '') !== '' && (pod.spec?.schedulingGates ?? []).length > 0)
    errs.push(
      FieldError.forbidden(
        path.child('nodeName'),
        'cannot be set until all schedulingGates have been cleared',
      ),
    );
  if (pod.metadata?.annotations != null) errs.push(...validateSecurityAnnotationsMatchFields(pod));
  return errs;
}

/** The spec validation of a pod being updated: skipped when the live spec, found valid, is shared. */
export function validateUpdatedPodSpec(pod: Pod, old: Pod): ErrorList {
  const name = pod.metadata?.name ?? '';
  if (pod.spec !== undefined && pod.spec === old.spec && (pod.spec as MarkedSpec)[validFor] === name)
    return [];
  return validatePodSpecOfPod(pod.spec, updateOptions(name, old.spec, isStaticPod(pod)));
}

/**
 * ValidatePodUpdate: meta, the pod's annotations, the spec, the annotation changes (which check the
 * annotations again, so kube reports a bad one twice), then only the updatable fields may differ.
 */
export function validatePodUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  errs.push(
    ...validatePodSpecificAnnotations(pod.metadata?.annotations, pod.spec, {
      allowInvalidDeletionCost: hadInvalidDeletionCost(old.metadata?.annotations),
    }),
  );
  errs.push(...validateUpdatedPodSpec(pod, old));
  errs.push(...validatePodAnnotationUpdates(pod, old));
  errs.push(...validatePodSpecUpdate(pod.spec ?? { containers: [] }, old.spec ?? { containers: [] }));
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

/** ValidateContainerUpdates: as many containers as before, each with an image; `stop` when the count moved. */
function validateContainerUpdates(
  containers: readonly Container[] | undefined,
  olds: readonly Container[] | undefined,
  path: FieldPath,
): { errs: ErrorList; stop: boolean } {
  if ((containers ?? []).length !== (olds ?? []).length)
    return { errs: [FieldError.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: ErrorList = [];
  (containers ?? []).forEach((c, i) => {
    const image = c.image ?? '';
    if (image === '') errs.push(FieldError.required(path.index(i).child('image')));
    if (image.trim() !== image)
      errs.push(
        FieldError.invalid(
          path.index(i).child('image'),
          image,
          'must not have leading or trailing whitespace',
        ),
      );
  });
  return { errs, stop: false };
}

/** activeDeadlineSeconds may be set, or lowered, never raised or removed; `stop` as kube returns early. */
function validateDeadlineUpdate(
  spec: PodSpec,
  old: PodSpec,
  path: FieldPath,
): { errs: ErrorList; stop: boolean } {
  const deadline = spec.activeDeadlineSeconds;
  const prior = old.activeDeadlineSeconds;
  if (deadline === undefined)
    return prior === undefined
      ? { errs: [], stop: false }
      : {
          errs: [FieldError.invalid(path, null, 'must not update from a positive integer to nil value')],
          stop: false,
        };
  if (deadline < 0 || deadline > 2147483647)
    return { errs: [FieldError.invalid(path, deadline, inclusiveRangeError(0, 2147483647))], stop: true };
  if (prior !== undefined && prior < deadline)
    return {
      errs: [FieldError.invalid(path, deadline, 'must be less than or equal to previous value')],
      stop: true,
    };
  return { errs: [], stop: false };
}

/** validateOnlyAddedTolerations: each old toleration kept (its tolerationSeconds may change), then all checked again. */
function validateOnlyAddedTolerations(spec: PodSpec, old: PodSpec, path: FieldPath): ErrorList {
  const tolerations = spec.tolerations ?? [];
  const sameBut = (a: Toleration, b: Toleration): boolean =>
    jsonEqual({ ...a, tolerationSeconds: undefined }, { ...b, tolerationSeconds: undefined });
  for (const prior of old.tolerations ?? [])
    if (!tolerations.some((t) => sameBut(t, prior)))
      return [
        FieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds'),
      ];
  return validateTolerations(tolerations, path);
}

/** validateOnlyDeletedSchedulingGates (kube walks a map; the new gates are reported here by index). */
function validateOnlyDeletedSchedulingGates(spec: PodSpec, old: PodSpec, path: FieldPath): ErrorList {
  const gates = spec.schedulingGates ?? [];
  if (gates.length === 0) return [];
  const added = new Map<string, number>();
  gates.forEach((g, i) => added.set(g.name, i));
  for (const g of old.schedulingGates ?? []) added.delete(g.name);
  return [...added].map(([gate, i]) =>
    FieldError.forbidden(
      path.index(i).child('name'),
      `only deletion is allowed, but found new scheduling gate '${gate}'`,
    ),
  );
}

/** The new spec with every updatable field taken from the old one: equal to it unless forbidden fields moved. */
function mungedSpec(spec: PodSpec, old: PodSpec): PodSpec {
  const images = (cs: Container[] | undefined, olds: Container[] | undefined): Container[] | undefined =>
    cs?.map((c, i) => ({ ...c, image: olds?.[i]?.image ?? '' }));
  const out: PodSpec = { ...spec, containers: images(spec.containers, old.containers) ?? [] };
  const init = images(spec.initContainers, old.initContainers);
  if (init !== undefined) out.initContainers = init;
  delete out.activeDeadlineSeconds;
  delete out.schedulingGates;
  delete out.tolerations;
  if (old.activeDeadlineSeconds !== undefined) out.activeDeadlineSeconds = old.activeDeadlineSeconds;
  if (old.schedulingGates !== undefined) out.schedulingGates = old.schedulingGates;
  if (old.tolerations !== undefined) out.tolerations = old.tolerations;
  const priorGrace = old.terminationGracePeriodSeconds;
  if (priorGrace !== undefined && priorGrace < 0 && spec.terminationGracePeriodSeconds === 1)
    out.terminationGracePeriodSeconds = priorGrace;
  return out;
}

/** The update checks of ValidatePodUpdate, after the spec itself was validated. */
function validatePodSpecUpdate(spec: PodSpec, old: PodSpec): ErrorList {
  const path = FieldPath.of('spec');
  const containers = validateContainerUpdates(spec.containers, old.containers, path.child('containers'));
  if (containers.stop) return containers.errs;
  const init = validateContainerUpdates(
    spec.initContainers,
    old.initContainers,
    path.child('initContainers'),
  );
  const errs = [...containers.errs, ...init.errs];
  if (init.stop) return errs;
  const deadline = validateDeadlineUpdate(spec, old, path.child('activeDeadlineSeconds'));
  errs.push(...deadline.errs);
  if (deadline.stop) return errs;
  errs.push(...validateOnlyAddedTolerations(spec, old, path.child('tolerations')));
  errs.push(...validateOnlyDeletedSchedulingGates(spec, old, path.child('schedulingGates')));
  if (spec === old || jsonEqual(spec, old)) return errs;
  // kube follows the list of fields with a go-cmp diff of the specs, which Capstan does not render.
  if (!jsonEqual(mungedSpec(spec, old), old))
    errs.push(
      FieldError.forbidden(path, `pod updates may not change fields other than ${updatableFields.join(',')}`),
    );
  return errs;
}
