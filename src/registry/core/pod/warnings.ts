// GetWarningsForPod and GetWarningsForPodTemplate (pkg/api/pod/warnings.go, kube 1.33): what a pod
// or pod template asks for that is valid but will not do what its author expects. The texts are
// kube's, which kubectl prints as "Warning: ...". kube passes these functions the old pod or template
// too, but 1.33 reads nothing of it: the workload strategies decide when to warn on update. Paths
// are built only for the warnings made, so an ordinary pod costs a few property reads per check.
import type { ObjectMeta } from '../../../api/meta.js';
import type { PodAffinityTerm, WeightedPodAffinityTerm } from '../../../api/core/v1/affinity.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { FieldPath, childOf, goQuote, isDNS1123Label } from '../../../machinery/validation/index.js';
import { fractionalBytes, fractionalBytesWarning } from '../../generic/fractional-bytes.js';
import { warningsForIP } from '../../networking/ip-warnings.js';
import { deprecatedNodeLabelMessage, warningsForNodeSelectorTerm } from '../node/deprecated-labels.js';
import { warnContainers, type PodWarningWalk } from './warnings-containers.js';
import { warnVolumes, warningsForOverlappingPaths } from './warnings-volumes.js';

/** What of the server's configuration the warnings depend on: its GitRepoVolumeDriver gate. */
export interface PodWarningOptions {
  readonly gitRepoVolumeDriver: boolean;
}

/** kube 1.33's default gates. */
const defaultOptions: PodWarningOptions = { gitRepoVolumeDriver: false };

/** The warnings for a pod on create (kube skips them on update, a path machines mostly take). */
export function warningsForPod(
  pod: { readonly metadata?: ObjectMeta; readonly spec?: PodSpec },
  opts: PodWarningOptions = defaultOptions,
): string[] {
  return warningsForSpec(newWalk(undefined, pod.metadata, opts), pod.spec);
}

/**
 * The warnings for a template at `path` (`spec.template`, `template`…); none for a missing one. The
 * workload strategies hold no feature gates, so a template is warned of as under the default gates.
 */
export function warningsForPodTemplate(path: FieldPath, template: PodTemplateSpec | undefined): string[] {
  return template === undefined
    ? []
    : warningsForSpec(newWalk(path, template.metadata, defaultOptions), template.spec);
}

/** pods/status's WarningsOnUpdate: the pod's and its node's IPs in forms kube means to stop accepting. */
export function podStatusIPWarnings(pod: Pod): string[] {
  const warnings: string[] = [];
  for (const list of ['podIPs', 'hostIPs'] as const)
    (pod.status?.[list] ?? []).forEach((item, i) => {
      warnings.push(...warningsForIP(() => FieldPath.of('status', list).index(i).child('ip'), item.ip));
    });
  return warnings;
}

const dnsLabelAdvice = (msgs: readonly string[]): string => `a DNS label is recommended: [${msgs.join(' ')}]`;

/** A pod's name becomes its hostname: WarningsOnCreate's warning for one that is no DNS label. */
export function podNameWarnings(name: string | undefined): string[] {
  const msgs = isDNS1123Label(name ?? '');
  return msgs.length === 0
    ? []
    : [
        `metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; ${dnsLabelAdvice(msgs)}`,
      ];
}

/** The same for a workload whose name starts its pods' names (Deployments, Jobs and others). */
export function workloadNameWarnings(name: string | undefined): string[] {
  const msgs = isDNS1123Label(name ?? '');
  return msgs.length === 0
    ? []
    : [
        `metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; ${dnsLabelAdvice(msgs)}`,
      ];
}

const deprecatedAnnotations: readonly (readonly [key: string, message: string])[] = [
  [
    'scheduler.alpha.kubernetes.io/critical-pod',
    'non-functional in v1.16+; use the "priorityClassName" field instead',
  ],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  [
    'security.alpha.kubernetes.io/unsafe-sysctls',
    'non-functional in v1.11+; use the "sysctls" field instead',
  ],
];
const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const nullSelector = 'a null labelSelector results in matching no pod';

const noContainers: PodSpec = { containers: [] };

/** The walk over a pod (`at` undefined) or a template at `at`. */
function newWalk(
  at: FieldPath | undefined,
  meta: ObjectMeta | undefined,
  opts: PodWarningOptions,
): PodWarningWalk {
  return {
    specPath: () => childOf(at, 'spec'),
    annotationsPath: () => childOf(at, 'metadata').child('annotations'),
    annotations: meta?.annotations,
    isTemplate: at !== undefined,
    gitRepoVolumeDriver: opts.gitRepoVolumeDriver,
    warnings: [],
  };
}

/** warningsForPodSpecAndMeta, the meta being the walk's. */
function warningsForSpec(walk: PodWarningWalk, spec: PodSpec = noContainers): string[] {
  warnNodeSelection(walk, spec);
  warnDeprecatedAnnotations(walk);
  if (spec.volumes !== undefined) {
    warnVolumes(walk, spec.volumes);
    walk.warnings.push(...warningsForOverlappingPaths(spec.volumes));
  }
  warnDuplicates(walk, spec);
  warnOverhead(walk, spec);
  if (
    spec.securityContext?.seccompProfile === undefined &&
    walk.annotations?.[seccompPodAnnotation] !== undefined
  )
    walk.warnings.push(
      `${walk.annotationsPath().key(seccompPodAnnotation).toString()}: non-functional in v1.27+; use the "seccompProfile" field instead`,
    );
  warnContainers(walk, spec);
  if ((spec.terminationGracePeriodSeconds ?? 0) < 0)
    walk.warnings.push(
      `${walk.specPath().child('terminationGracePeriodSeconds').toString()}: must be >= 0; negative values are invalid and will be treated as 1`,
    );
  warnPodAffinity(walk, spec);
  warnIPs(walk, spec);
  return walk.warnings;
}

/** Retired node labels in the node selector, node affinity and spread constraints. */
function warnNodeSelection(walk: PodWarningWalk, spec: PodSpec): void {
  const { warnings } = walk;
  for (const key in spec.nodeSelector) {
    const msg = deprecatedNodeLabelMessage(key);
    if (msg !== undefined)
      warnings.push(`${walk.specPath().child('nodeSelector').key(key).toString()}: ${msg}`);
  }
  const nodeAffinity = spec.affinity?.nodeAffinity;
  if (nodeAffinity !== undefined) {
    const affinityPath = () => walk.specPath().child('affinity', 'nodeAffinity');
    const required = () =>
      affinityPath().child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
    (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []).forEach(
      (term, i) => {
        warnings.push(...warningsForNodeSelectorTerm(term, false, () => required().index(i)));
      },
    );
    const preferred = () => affinityPath().child('preferredDuringSchedulingIgnoredDuringExecution');
    (nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      const at = () => preferred().index(i).child('preference');
      warnings.push(...warningsForNodeSelectorTerm(term.preference, true, at));
    });
  }
  (spec.topologySpreadConstraints ?? []).forEach((t, i) => {
    const path = () => walk.specPath().child('topologySpreadConstraints').index(i);
    const msg = deprecatedNodeLabelMessage(t.topologyKey);
    if (msg !== undefined)
      warnings.push(`${path().child('topologyKey').toString()}: ${t.topologyKey} is ${msg}`);
    if (t.labelSelector === undefined)
      warnings.push(`${path().child('labelSelector').toString()}: ${nullSelector}`);
  });
}

function warnDeprecatedAnnotations(walk: PodWarningWalk): void {
  const annotations = walk.annotations;
  if (annotations === undefined) return;
  for (const [key, message] of deprecatedAnnotations)
    if (annotations[key] !== undefined)
      walk.warnings.push(`${walk.annotationsPath().key(key).toString()}: ${message}`);
}

/** Host aliases for one IP and image pull secrets named twice (one of each is ignored), or unnamed. */
function warnDuplicates(walk: PodWarningWalk, spec: PodSpec): void {
  const aliases = spec.hostAliases ?? [];
  if (aliases.length > 1) {
    const ips = new Set<string>();
    aliases.forEach((alias, i) => {
      if (!ips.has(alias.ip)) ips.add(alias.ip);
      else
        walk.warnings.push(
          `${walk.specPath().child('hostAliases').index(i).child('ip').toString()}: duplicate ip ${goQuote(alias.ip)}`,
        );
    });
  }
  const secrets = spec.imagePullSecrets ?? [];
  const namePath = (i: number) => walk.specPath().child('imagePullSecrets').index(i).child('name').toString();
  if (secrets.length > 1) {
    const names = new Set<string>();
    secrets.forEach((secret, i) => {
      const name = secret.name ?? '';
      if (!names.has(name)) names.add(name);
      else walk.warnings.push(`${namePath(i)}: duplicate name ${goQuote(name)}`);
    });
  }
  secrets.forEach((secret, i) => {
    if ((secret.name ?? '') === '') walk.warnings.push(`${namePath(i)}: invalid empty name ""`);
  });
}

function warnOverhead(walk: PodWarningWalk, spec: PodSpec): void {
  const overhead = spec.overhead;
  if (overhead === undefined) return;
  for (const resource of ['memory', 'ephemeral-storage'] as const) {
    const canonical = fractionalBytes(overhead[resource]);
    if (canonical !== undefined)
      walk.warnings.push(fractionalBytesWarning(walk.specPath().child('overhead').key(resource), canonical));
  }
}

function warnAffinityTerms(
  walk: PodWarningWalk,
  terms: readonly PodAffinityTerm[] | undefined,
  path: () => FieldPath,
): void {
  (terms ?? []).forEach((t, i) => {
    if (t.labelSelector === undefined)
      walk.warnings.push(`${path().index(i).child('labelSelector').toString()}: ${nullSelector}`);
  });
}

function warnWeightedAffinityTerms(
  walk: PodWarningWalk,
  terms: readonly WeightedPodAffinityTerm[] | undefined,
  path: () => FieldPath,
): void {
  (terms ?? []).forEach((t, i) => {
    if (t.podAffinityTerm?.labelSelector === undefined)
      walk.warnings.push(
        `${path().index(i).child('podAffinityTerm', 'labelSelector').toString()}: ${nullSelector}`,
      );
  });
}

/** Pod (anti-)affinity terms without a label selector, which select no pod at all. */
function warnPodAffinity(walk: PodWarningWalk, spec: PodSpec): void {
  const affinity = spec.affinity;
  if (affinity === undefined) return;
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const terms = affinity[kind];
    if (terms === undefined) continue;
    const path = (rule: string) => () => walk.specPath().child('affinity', kind, rule);
    warnAffinityTerms(
      walk,
      terms.requiredDuringSchedulingIgnoredDuringExecution,
      path('requiredDuringSchedulingIgnoredDuringExecution'),
    );
    warnWeightedAffinityTerms(
      walk,
      terms.preferredDuringSchedulingIgnoredDuringExecution,
      path('preferredDuringSchedulingIgnoredDuringExecution'),
    );
  }
}

/** IP addresses in forms kube means to stop accepting, or IPv6 not written canonically. */
function warnIPs(walk: PodWarningWalk, spec: PodSpec): void {
  (spec.dnsConfig?.nameservers ?? []).forEach((ns, i) => {
    walk.warnings.push(
      ...warningsForIP(() => walk.specPath().child('dnsConfig', 'nameservers').index(i), ns),
    );
  });
  (spec.hostAliases ?? []).forEach((alias, i) => {
    walk.warnings.push(
      ...warningsForIP(() => walk.specPath().child('hostAliases').index(i).child('ip'), alias.ip),
    );
  });
}
