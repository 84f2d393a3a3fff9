// applyAppArmorVersionSkew (pkg/registry/core/pod/strategy.go), run last in PrepareForCreate: the
// deprecated per-container AppArmor annotation and the appArmorProfile field are made to say the
// same thing, so that kubelets reading either one enforce the profile. A container with a field (its
// own, else the pod's) and no annotation gets the annotation; one with an annotation and no field of
// its own gets the field, unless the pod's already says it. An annotation that yields no valid field,
// or that is copied, is warned about as deprecated. Windows pods are left alone. Validation runs
// after, so it sees the synced pair.
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import type { SecurityProfile } from '../../../api/core/v1/security-options.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import type { RequestContext } from '../../rest/context.js';
import { validateAppArmorProfileField } from './validation/security-context.js';

const annotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const localhostPrefix = 'localhost/';

// podutil.AllFeatureEnabledContainers, in VisitContainers' order.
const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

// kube validates the derived field at an empty path; only whether it fails matters here.
const noPath = FieldPath.of('');

/** A profile member; a JSON null is a nil pointer, as a missing member is. */
function profileIn(sc: { readonly appArmorProfile?: SecurityProfile } | null | undefined) {
  const profile: unknown = sc?.appArmorProfile;
  return profile == null ? undefined : (profile as SecurityProfile);
}

/** A container's name; the decoder does not enforce required fields, and Go's zero value is "". */
const nameOf = (c: { readonly name?: string }): string => c.name ?? '';

/** appArmorAnnotationForField: '' when the field has no annotation form (unknown type, no profile name). */
function annotationFor(profile: SecurityProfile): string {
  switch (profile.type) {
    case 'Unconfined':
      return 'unconfined';
    case 'RuntimeDefault':
      return 'runtime/default';
    case 'Localhost':
      return profile.localhostProfile == null ? '' : localhostPrefix + profile.localhostProfile;
    default:
      return '';
  }
}

/** apparmorFieldForAnnotation, kept only when ValidateAppArmorProfileField accepts it. */
function fieldFor(annotation: string): SecurityProfile | undefined {
  if (annotation === 'unconfined') return { type: 'Unconfined' };
  if (annotation === 'runtime/default') return { type: 'RuntimeDefault' };
  if (!annotation.startsWith(localhostPrefix) || annotation.length === localhostPrefix.length)
    return undefined;
  const field = { type: 'Localhost', localhostProfile: annotation.slice(localhostPrefix.length) };
  return validateAppArmorProfileField(field, noPath).length === 0 ? field : undefined;
}

/** apiequality.Semantic.DeepEqual of a derived field and the pod's profile. */
const sameProfile = (a: SecurityProfile, b: SecurityProfile | undefined): boolean =>
  b !== undefined && a.type === b.type && a.localhostProfile === (b.localhostProfile ?? undefined);

/** Whether any annotation is an AppArmor one: most pods have none, nor any field. */
function hasAppArmorAnnotation(annotations: Readonly<Record<string, string>> | null | undefined): boolean {
  if (annotations == null) return false;
  for (const key in annotations) if (key.startsWith(annotationPrefix)) return true;
  return false;
}

/** Syncs one container's annotation and field (the body of kube's visitor). */
function syncContainer(ctx: RequestContext, pod: Pod, at: { c: Container; podProfile?: SecurityProfile }) {
  const { c, podProfile } = at;
  const key = annotationPrefix + nameOf(c);
  const annotation = pod.metadata?.annotations?.[key];
  const own = profileIn(c.securityContext);
  if (annotation === undefined) {
    const profile = own ?? podProfile;
    const wanted = profile === undefined ? '' : annotationFor(profile);
    if (wanted !== '') ((pod.metadata ??= {}).annotations ??= {})[key] = wanted;
    return;
  }
  if (own !== undefined) return;
  const field = fieldFor(annotation);
  let warn = field === undefined;
  if (field !== undefined && !sameProfile(field, podProfile)) {
    (c.securityContext ??= {}).appArmorProfile = field;
    warn = true;
  }
  if (warn)
    ctx.addWarning(
      `metadata.annotations[${key}]: deprecated since v1.30; use the "appArmorProfile" field instead`,
    );
}

/** Whether any of these containers has an AppArmor profile of its own. */
function anyProfile(containers: readonly Container[] | null | undefined): boolean {
  if (containers == null) return false;
  for (let i = 0; i < containers.length; i++)
    if (profileIn(containers[i]?.securityContext) !== undefined) return true;
  return false;
}

/** applyAppArmorVersionSkew: see the head of this file. */
export function applyAppArmorVersionSkew(ctx: RequestContext, pod: Pod): void {
  const spec: PodSpec | undefined = pod.spec;
  if (spec == null || spec.os?.name === 'windows') return;
  const podProfile = profileIn(spec.securityContext);
  // Most pods have no annotation and no profile anywhere: nothing to sync, and no keys to build.
  if (
    podProfile === undefined &&
    !hasAppArmorAnnotation(pod.metadata?.annotations) &&
    !anyProfile(spec.containers) &&
    !anyProfile(spec.initContainers) &&
    !anyProfile(spec.ephemeralContainers)
  )
    return;
  for (const list of containerLists) {
    const containers: readonly Container[] | null | undefined = spec[list];
    if (containers == null) continue;
    for (const c of containers) syncContainer(ctx, pod, podProfile === undefined ? { c } : { c, podProfile });
  }
}
