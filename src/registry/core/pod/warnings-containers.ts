// The container part of pkg/api/pod/warnings.go (1.33), in its three passes over init, regular and
// ephemeral containers: per container (annotations that no longer work, memory and storage in
// fractions of a byte, environment variables that hide earlier ones), then ports that collide
// across containers, then port names used twice (warnings-ports.ts). Every pod goes through here on
// create, so the loops allocate nothing per container beyond its position unless a warning is due.
import type { Container, EnvVar } from '../../../api/core/v1/container.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import { goQuote, type FieldPath } from '../../../machinery/validation/index.js';
import { fractionalBytes, fractionalBytesWarning } from '../../generic/fractional-bytes.js';
import { containerPath, warnPortNames, warnPorts, type ContainerAt, type PortAt } from './warnings-ports.js';

/** What the checks of one pod or template read besides the spec, and where their warnings go. */
export interface PodWarningWalk {
  /** The spec's path (`spec`, or the template's `spec.template.spec`), built only when a warning needs it. */
  readonly specPath: () => FieldPath;
  /** The path of the annotations the pod or template carries. */
  readonly annotationsPath: () => FieldPath;
  readonly annotations: Readonly<Record<string, string>> | undefined;
  /** Templates warn about AppArmor annotations; a pod's are synced to fields on create instead. */
  readonly isTemplate: boolean;
  /** The server's GitRepoVolumeDriver gate, which changes what kube says of gitRepo volumes. */
  readonly gitRepoVolumeDriver: boolean;
  readonly warnings: string[];
}

// pods.VisitContainersWithPath's order.
const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

const seccompContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const appArmorContainerPrefix = 'container.apparmor.security.beta.kubernetes.io/';

/** Which per-container annotation checks can find anything: most pods carry neither kind. */
interface AnnotationChecks {
  readonly seccomp: boolean;
  readonly appArmor: boolean;
  /** The pod-level AppArmor field, which stands for every container. */
  readonly podAppArmor: boolean;
}

function annotationChecks(walk: PodWarningWalk, spec: PodSpec): AnnotationChecks {
  let seccomp = false;
  let appArmor = false;
  for (const key in walk.annotations) {
    if (key.startsWith(seccompContainerPrefix)) seccomp = true;
    else if (key.startsWith(appArmorContainerPrefix)) appArmor = true;
  }
  return {
    seccomp,
    appArmor: appArmor && walk.isTemplate,
    podAppArmor: spec.securityContext?.appArmorProfile !== undefined,
  };
}

function warnAnnotations(walk: PodWarningWalk, c: Container, checks: AnnotationChecks): void {
  const annotations = walk.annotations ?? {};
  const seccompKey = seccompContainerPrefix + c.name;
  if (
    checks.seccomp &&
    c.securityContext?.seccompProfile === undefined &&
    annotations[seccompKey] !== undefined
  )
    walk.warnings.push(
      `${walk.annotationsPath().key(seccompKey).toString()}: non-functional in v1.27+; use the "seccompProfile" field instead`,
    );
  if (!checks.appArmor || checks.podAppArmor || c.securityContext?.appArmorProfile !== undefined) return;
  const appArmorKey = appArmorContainerPrefix + c.name;
  if (annotations[appArmorKey] !== undefined)
    walk.warnings.push(
      `${walk.annotationsPath().key(appArmorKey).toString()}: deprecated since v1.30; use the "appArmorProfile" field instead`,
    );
}

// Limits before requests, memory before ephemeral storage, as kube checks them.
const byteResources = [
  ['memory', 'limits'],
  ['memory', 'requests'],
  ['ephemeral-storage', 'limits'],
  ['ephemeral-storage', 'requests'],
] as const;

function warnFractionalBytes(walk: PodWarningWalk, c: Container, at: ContainerAt): void {
  const resources = c.resources;
  if (resources === undefined) return;
  for (const [resource, kind] of byteResources) {
    const canonical = fractionalBytes(resources[kind]?.[resource]);
    if (canonical !== undefined)
      walk.warnings.push(
        fractionalBytesWarning(containerPath(walk, at).child('resources', kind).key(resource), canonical),
      );
  }
}

/** Up to this many variables, finding an earlier one by scanning beats building a set. */
const envScanLimit = 32;

/** Whether env[i]'s name was defined before it. */
function definedBefore(env: readonly EnvVar[], i: number, seen: Set<string> | undefined): boolean {
  const name = env[i]?.name;
  if (seen !== undefined) return seen.has(name ?? '');
  for (let k = 0; k < i; k++) if (env[k]?.name === name) return true;
  return false;
}

/**
 * A variable defined again is fine when its value builds on the earlier one ($(X) inside it, with
 * more around it); otherwise the earlier definition is lost, and apply may drop one of the two.
 */
function warnHiddenEnv(walk: PodWarningWalk, c: Container, at: ContainerAt): void {
  const env = c.env;
  if (env === undefined || env.length < 2) return;
  const seen = env.length > envScanLimit ? new Set<string>() : undefined;
  env.forEach((item, i) => {
    if (!definedBefore(env, i, seen)) {
      seen?.add(item.name);
      return;
    }
    const ref = `$(${item.name})`;
    const value = item.value ?? '';
    if (item.valueFrom !== undefined || value === ref || !value.includes(ref))
      walk.warnings.push(
        `${containerPath(walk, at).child('env').index(i).toString()}: hides previous definition of ${goQuote(item.name)}, which may be dropped when using apply`,
      );
  });
}

/** The three container passes, their warnings added to `walk.warnings`. */
export function warnContainers(walk: PodWarningWalk, spec: PodSpec): void {
  const checks = annotationChecks(walk, spec);
  const ports: PortAt[] = [];
  for (const list of containerLists) {
    const containers: readonly Container[] = spec[list] ?? [];
    containers.forEach((c, index) => {
      const at = { list, index };
      if (checks.seccomp || checks.appArmor) warnAnnotations(walk, c, checks);
      warnFractionalBytes(walk, c, at);
      warnHiddenEnv(walk, c, at);
      c.ports?.forEach((port, i) => ports.push({ port, container: at, index: i }));
    });
  }
  if (ports.length === 0) return;
  warnPorts(walk, ports);
  warnPortNames(walk, ports);
}
