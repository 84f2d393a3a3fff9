// The annotations kube gives meaning on a pod (pkg/apis/core/validation/validation.go):
// ValidatePodSpecificAnnotations (the mirror pod annotation, the tolerations annotation, the pod
// deletion cost, then the deprecated seccomp and AppArmor annotations),
// ValidatePodSpecificAnnotationUpdates, and the create-time checks that a seccomp or AppArmor
// annotation agrees with the field beside it (validateSeccompAnnotationsAndFields,
// validateAppArmorAnnotationsAndFieldsMatchOnCreate). kube walks the annotations as a Go map, in no
// fixed order; Capstan takes them in the object's order.
import { mirrorPodAnnotation } from '../../../../api/core/v1/pod.js';
import type { Container } from '../../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../../api/core/v1/pod.js';
import type { SecurityProfile } from '../../../../api/core/v1/security-options.js';
import { FieldError, FieldPath, goQuote, type ErrorList } from '../../../../machinery/validation/index.js';
import { validateLocalDescendingPath } from './volume-paths.js';
import { tolerationsAnnotationKey, validateTolerationsAnnotation } from './tolerations-annotation.js';

const seccompPodKey = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const appArmorPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const localhostPrefix = 'localhost/';
const deletionCostKey = 'controller.kubernetes.io/pod-deletion-cost';

type Annotations = Readonly<Record<string, string>> | null | undefined;

// Paths are immutable: one root serves every pod.
const annotationsPath = FieldPath.of('metadata', 'annotations');

/** ValidateSeccompProfile: the annotation's profile names. */
function validateSeccompProfile(profile: string, path: FieldPath, errs: ErrorList): void {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return;
  if (profile.startsWith(localhostPrefix))
    errs.push(...validateLocalDescendingPath(profile.slice(localhostPrefix.length), path));
  else errs.push(FieldError.invalid(path, profile, 'must be a valid seccomp profile'));
}

const specPath = FieldPath.of('spec');

/**
 * Every container of a spec (at `base`) in podshelper.VisitContainersWithPath's order, stopping when
 * `visit` says so.
 */
function visitContainers(
  spec: PodSpec,
  visit: (c: Pick<Container, 'name' | 'securityContext'>, path: () => FieldPath) => boolean,
  base: FieldPath = specPath,
): void {
  for (const list of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    const containers: readonly Pick<Container, 'name' | 'securityContext'>[] = spec[list] ?? [];
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i];
      if (c !== undefined && !visit(c, () => base.child(list).index(i))) return;
    }
  }
}

/** A container's name; the decoder does not enforce required fields, and Go's zero value is "". */
const nameOf = (c: { readonly name?: string }): string => c.name ?? '';

function hasContainer(spec: PodSpec | undefined, name: string): boolean {
  if (spec === undefined) return false;
  let found = false;
  visitContainers(spec, (c) => {
    found = nameOf(c) === name;
    return !found;
  });
  return found;
}

// GetDeletionCostFromPodAnnotations (pkg/apis/core/helper/helpers.go): no plus sign, no leading zero
// unless negative (validFirstDigit), then strconv.ParseInt's base-10 digits.
const deletionCostSyntax = /^(?:0|[1-9][0-9]*|-[0-9]+)$/;

/** Whether a pod-deletion-cost annotation's value is an int32, as kube parses it. */
function isValidDeletionCost(value: string): boolean {
  if (!deletionCostSyntax.test(value)) return false;
  const n = Number(value);
  return n >= -2147483648 && n <= 2147483647;
}

/**
 * Whether an update may keep an invalid pod-deletion-cost annotation: the old pod had one already
 * (GetValidationOptionsFromPodSpecAndMeta's AllowInvalidPodDeletionCost; its feature gate, beta and
 * on by default, is not modelled).
 */
export function hadInvalidDeletionCost(old: Annotations): boolean {
  const cost = old?.[deletionCostKey];
  return cost !== undefined && !isValidDeletionCost(cost);
}

export interface PodAnnotationsCheck {
  /** An update whose old pod had an invalid deletion cost may keep one (hadInvalidDeletionCost). */
  readonly allowInvalidDeletionCost?: boolean;
  /** Where the annotations are: a pod's at metadata.annotations, a template's at `<path>.annotations`. */
  readonly path?: FieldPath;
}

/** ValidatePodSpecificAnnotations. */
export function validatePodSpecificAnnotations(
  annotations: Annotations,
  spec: PodSpec | undefined,
  check: PodAnnotationsCheck = {},
): ErrorList {
  const allowInvalidDeletionCost = check.allowInvalidDeletionCost === true;
  const path = check.path ?? annotationsPath;
  if (annotations == null) return [];
  const errs: ErrorList = [];
  const mirror = annotations[mirrorPodAnnotation];
  if (mirror !== undefined && (spec?.nodeName ?? '') === '')
    errs.push(
      FieldError.invalid(
        path.key(mirrorPodAnnotation),
        mirror,
        'must set spec.nodeName if mirror pod annotation is set',
      ),
    );
  const tolerations = annotations[tolerationsAnnotationKey];
  if (tolerations !== undefined && tolerations !== '')
    errs.push(...validateTolerationsAnnotation(tolerations, path));
  const cost = annotations[deletionCostKey];
  if (cost !== undefined && !allowInvalidDeletionCost && !isValidDeletionCost(cost))
    errs.push(FieldError.invalid(path.key(deletionCostKey), cost, 'must be a 32bit integer'));
  // ValidateSeccompPodAnnotations: the pod's annotation, then every container's (as Child, not Key).
  const seccompPod = annotations[seccompPodKey];
  if (seccompPod !== undefined) validateSeccompProfile(seccompPod, path.child(seccompPodKey), errs);
  for (const key in annotations)
    if (key.startsWith(seccompContainerPrefix))
      validateSeccompProfile(annotations[key] ?? '', path.child(key), errs);
  // ValidateAppArmorPodAnnotations: a container of the pod, and a profile name of the annotation's form.
  for (const key in annotations) {
    if (!key.startsWith(appArmorPrefix)) continue;
    const container = key.slice(appArmorPrefix.length);
    if (!hasContainer(spec, container))
      errs.push(FieldError.invalid(path.key(key), container, 'container not found'));
    const profile = annotations[key] ?? '';
    if (
      profile !== '' &&
      profile !== 'runtime/default' &&
      profile !== 'unconfined' &&
      !profile.startsWith(localhostPrefix)
    )
      errs.push(
        FieldError.invalid(path.key(key), profile, `invalid AppArmor profile name: ${goQuote(profile)}`),
      );
  }
  return errs;
}

/**
 * ValidatePodSpecificAnnotationUpdates: no AppArmor or mirror pod annotation added, changed or
 * removed, then ValidatePodSpecificAnnotations of the new pod.
 */
export function validatePodAnnotationUpdates(pod: Pod, old: Pod): ErrorList {
  const now = pod.metadata?.annotations ?? {};
  const before = old.metadata?.annotations ?? {};
  const errs: ErrorList = [];
  const path = annotationsPath;
  const guarded = (key: string): boolean => key === mirrorPodAnnotation || key.startsWith(appArmorPrefix);
  for (const key in before) {
    if (!guarded(key) || now[key] === before[key]) continue;
    errs.push(
      FieldError.forbidden(
        path.key(key),
        key === mirrorPodAnnotation
          ? 'may not remove or update mirror pod annotation'
          : 'may not remove or update AppArmor annotations',
      ),
    );
  }
  for (const key in now) {
    if (!guarded(key) || key in before) continue;
    errs.push(
      FieldError.forbidden(
        path.key(key),
        key === mirrorPodAnnotation
          ? 'may not add mirror pod annotation'
          : 'may not add AppArmor annotations',
      ),
    );
  }
  errs.push(
    ...validatePodSpecificAnnotations(pod.metadata?.annotations, pod.spec, {
      allowInvalidDeletionCost: hadInvalidDeletionCost(old.metadata?.annotations),
    }),
  );
  return errs;
}

/** How an annotation of one kind of profile names the field's types (and the kind's word in errors). */
interface ProfileAnnotation {
  readonly word: 'seccomp' | 'apparmor';
  readonly runtimeDefaults: readonly string[];
}

const seccompAnnotation: ProfileAnnotation = {
  word: 'seccomp',
  runtimeDefaults: ['runtime/default', 'docker/default'],
};
const appArmorAnnotation: ProfileAnnotation = { word: 'apparmor', runtimeDefaults: ['runtime/default'] };

/**
 * validateSeccompAnnotationsAndFieldsMatch, and its AppArmor counterpart in AppArmor's words: the
 * annotation names the field's profile.
 */
function profileMatch(
  kind: ProfileAnnotation,
  annotation: string,
  at: { readonly profile: SecurityProfile; readonly path: FieldPath },
): FieldError | undefined {
  const { profile, path } = at;
  const typeMismatch = (): FieldError =>
    FieldError.forbidden(path.child('type'), `${kind.word} type in annotation and field must match`);
  switch (profile.type) {
    case 'Unconfined':
      return annotation === 'unconfined' ? undefined : typeMismatch();
    case 'RuntimeDefault':
      return kind.runtimeDefaults.includes(annotation) ? undefined : typeMismatch();
    case 'Localhost':
      if (!annotation.startsWith(localhostPrefix)) return typeMismatch();
      return profile.localhostProfile === annotation.slice(localhostPrefix.length)
        ? undefined
        : FieldError.forbidden(
            path.child('localhostProfile'),
            `${kind.word} profile in annotation and field must match`,
          );
    default:
      return undefined;
  }
}

interface Profiles {
  readonly seccompProfile?: SecurityProfile | undefined;
  readonly appArmorProfile?: SecurityProfile | undefined;
}

/** A profile of a security context; a JSON null is a nil pointer, as a missing member is. */
function profileOf(
  sc: Profiles | null | undefined,
  key: 'seccompProfile' | 'appArmorProfile',
): SecurityProfile | undefined {
  const profile: unknown = sc?.[key];
  return profile == null ? undefined : (profile as SecurityProfile);
}

/** Whether any annotation is a seccomp or AppArmor one: most pods have none, and skip the walk. */
function hasSecurityAnnotation(annotations: Readonly<Record<string, string>>): boolean {
  for (const key in annotations)
    if (key === seccompPodKey || key.startsWith(seccompContainerPrefix) || key.startsWith(appArmorPrefix))
      return true;
  return false;
}

/**
 * ValidatePodCreate's last checks (and a pod template's): where a seccomp annotation and field are
 * both set they agree (the pod's, then each container's), then each container's AppArmor profile
 * (its own, else the pod's) agrees with its annotation, except on Windows pods. `base` is the spec's
 * path.
 */
export function validateSecurityAnnotationsMatchFields(
  pod: Pick<Pod, 'metadata' | 'spec'>,
  base: FieldPath = specPath,
): ErrorList {
  const annotations = pod.metadata?.annotations;
  const spec = pod.spec;
  if (annotations == null || spec === undefined || !hasSecurityAnnotation(annotations)) return [];
  const errs: ErrorList = [];
  const podSeccomp = profileOf(spec.securityContext, 'seccompProfile');
  const podAnnotation = annotations[seccompPodKey];
  if (podSeccomp !== undefined && podAnnotation !== undefined) {
    const err = profileMatch(seccompAnnotation, podAnnotation, {
      profile: podSeccomp,
      path: base.child('securityContext', 'seccompProfile'),
    });
    if (err !== undefined) errs.push(err);
  }
  visitContainers(
    spec,
    (c, at) => {
      const profile = profileOf(c.securityContext, 'seccompProfile');
      const annotation = annotations[seccompContainerPrefix + nameOf(c)];
      if (profile === undefined || annotation === undefined) return true;
      const err = profileMatch(seccompAnnotation, annotation, {
        profile,
        path: at().child('securityContext', 'seccompProfile'),
      });
      if (err !== undefined) errs.push(err);
      return true;
    },
    base,
  );
  if (spec.os?.name === 'windows') return errs;
  const podAppArmor = profileOf(spec.securityContext, 'appArmorProfile');
  visitContainers(
    spec,
    (c, at) => {
      const profile = profileOf(c.securityContext, 'appArmorProfile') ?? podAppArmor;
      const annotation = annotations[appArmorPrefix + nameOf(c)];
      if (profile === undefined || annotation === undefined) return true;
      const err = profileMatch(appArmorAnnotation, annotation, {
        profile,
        path: at().child('securityContext', 'appArmorProfile'),
      });
      if (err !== undefined) errs.push(err);
      return true;
    },
    base,
  );
  return errs;
}
