// The pod-level fields of ValidatePodSpec (pkg/apis/core/validation/validation.go): policies,
// scheduling and identity fields, tolerations; the pod security context in pod-security-context.ts.
import { validateAffinity } from './affinity.js';
import type { Container } from '../../../../api/core/v1/container.js';
import type { EphemeralContainer } from '../../../../api/core/v1/ephemeral-container.js';
import type { PodSecurityContext, PodSpec, Toleration } from '../../../../api/core/v1/pod.js';
import {
  FieldError,
  isDNS1123Subdomain,
  isQualifiedName,
  inclusiveRangeError,
  isDNS1123Label,
  isValidLabelValue,
  nameIsDNSSubdomain,
  validateLabelName,
  validateLabels,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { validatePodSecurityContext, type SecurityContextOptions } from './pod-security-context.js';
import { validatePodDNSConfig } from './dns-config.js';
import { isIPSloppy } from '../../../../machinery/netip/sloppy.js';
import { isValidIPForLegacyField } from '../../../networking/ip-validation.js';
import { validateResourceRequirements } from './resources.js';
import { validateTopologySpreadConstraints } from './topology-spread.js';
import { validateWindowsHostProcessPod } from './windows-host-process.js';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];
// validOS, as sets.List prints it.
const validOS = ['linux', 'windows'];
const maxInt32 = 2147483647;

function validateEnum(value: string | undefined, valid: readonly string[], path: FieldPath): ErrorList {
  const v = value ?? '';
  if (v === '') return [FieldError.required(path)];
  return valid.includes(v) ? [] : [FieldError.notSupported(path, v, valid)];
}

function invalidAll(messages: string[], value: string, path: FieldPath): ErrorList {
  return messages.map((msg) => FieldError.invalid(path, value, msg));
}

/** validateTolerations. */
export function validateTolerations(
  tolerations: readonly Toleration[] | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  (tolerations ?? []).forEach((t, i) => {
    const p = path.index(i);
    const key = t.key ?? '';
    const operator = t.operator ?? '';
    const value = t.value ?? '';
    const effect = t.effect ?? '';
    if (key !== '') errs.push(...validateLabelName(key, p.child('key')));
    if (key === '' && operator !== 'Exists')
      errs.push(
        FieldError.invalid(
          p.child('operator'),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (t.tolerationSeconds !== undefined && effect !== 'NoExecute')
      errs.push(
        FieldError.invalid(
          p.child('effect'),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(FieldError.invalid(p.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '')
        errs.push(
          FieldError.invalid(p.child('operator'), value, "value must be empty when `operator` is 'Exists'"),
        );
    } else {
      errs.push(FieldError.notSupported(p.child('operator'), operator, tolerationOperators));
    }
    if (effect !== '' && !taintEffects.includes(effect))
      errs.push(FieldError.notSupported(p.child('effect'), effect, taintEffects));
  });
  return errs;
}

// IsValidSysctlName: dot- or slash-separated segments, 253 characters at most.
/** validateHostUsers: no user namespace together with a host namespace (kube's own capitals kept). */
function validateHostUsers(spec: PodSpec, path: FieldPath): ErrorList {
  if (spec.hostUsers !== false) return [];
  const why = 'when `pod.Spec.HostUsers` is false';
  const errs: ErrorList = [];
  if (spec.hostNetwork === true) errs.push(FieldError.forbidden(path.child('hostNetwork'), why));
  if (spec.hostPID === true) errs.push(FieldError.forbidden(path.child('HostPID'), why));
  if (spec.hostIPC === true) errs.push(FieldError.forbidden(path.child('HostIPC'), why));
  return errs;
}

/** Every container of a spec with its path, as podshelper.VisitContainersWithPath walks them. */
function containersWithPaths(spec: PodSpec, path: FieldPath): [Container | EphemeralContainer, FieldPath][] {
  const out: [Container | EphemeralContainer, FieldPath][] = [];
  (spec.initContainers ?? []).forEach((c, i) => out.push([c, path.child('initContainers').index(i)]));
  spec.containers.forEach((c, i) => out.push([c, path.child('containers').index(i)]));
  (spec.ephemeralContainers ?? []).forEach((c, i) =>
    out.push([c, path.child('ephemeralContainers').index(i)]),
  );
  return out;
}

/** validateLinux: no Windows options anywhere. */
function validateLinux(spec: PodSpec, path: FieldPath): ErrorList {
  const why = 'windows options cannot be set for a linux pod';
  const errs: ErrorList = [];
  if (spec.securityContext?.windowsOptions !== undefined)
    errs.push(FieldError.forbidden(path.child('securityContext', 'windowsOptions'), why));
  for (const [c, p] of containersWithPaths(spec, path))
    if (c.securityContext?.windowsOptions !== undefined)
      errs.push(FieldError.forbidden(p.child('securityContext', 'windowsOptions'), why));
  return errs;
}

// validateWindows: the Linux-only fields of the pod and of each container's security context, in kube's order.
const windowsPodFields: [keyof PodSecurityContext, string[]][] = [
  ['appArmorProfile', ['securityContext', 'appArmorProfile']],
  ['seLinuxOptions', ['securityContext', 'seLinuxOptions']],
];
const windowsPodFieldsAfterHost: [keyof PodSecurityContext, string[]][] = [
  ['seccompProfile', ['securityContext', 'seccompProfile']],
  ['fsGroup', ['securityContext', 'fsGroup']],
  ['fsGroupChangePolicy', ['securityContext', 'fsGroupChangePolicy']],
];
const windowsContainerFields = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
] as const;

function validateWindows(spec: PodSpec, path: FieldPath): ErrorList {
  const why = 'cannot be set for a windows pod';
  const errs: ErrorList = [];
  const sc = spec.securityContext ?? {};
  const forbid = (set: boolean, ...names: string[]): void => {
    const [name, ...more] = names;
    if (set && name !== undefined) errs.push(FieldError.forbidden(path.child(name, ...more), why));
  };
  for (const [key, names] of windowsPodFields) forbid(sc[key] !== undefined, ...names);
  forbid(spec.hostUsers !== undefined, 'hostUsers');
  forbid(spec.hostPID === true, 'hostPID');
  forbid(spec.hostIPC === true, 'hostIPC');
  for (const [key, names] of windowsPodFieldsAfterHost) forbid(sc[key] !== undefined, ...names);
  forbid((sc.sysctls ?? []).length > 0, 'securityContext', 'sysctls');
  forbid(spec.shareProcessNamespace !== undefined, 'shareProcessNamespace');
  forbid(sc.runAsUser !== undefined, 'securityContext', 'runAsUser');
  forbid(sc.runAsGroup !== undefined, 'securityContext', 'runAsGroup');
  forbid(sc.supplementalGroups !== undefined, 'securityContext', 'supplementalGroups');
  forbid(sc.supplementalGroupsPolicy !== undefined, 'securityContext', 'supplementalGroupsPolicy');
  forbid(sc.seLinuxChangePolicy !== undefined, 'securityContext', 'seLinuxChangePolicy');
  for (const [c, p] of containersWithPaths(spec, path)) {
    const csc = c.securityContext;
    if (csc === undefined) continue;
    for (const key of windowsContainerFields)
      if (csc[key] !== undefined) errs.push(FieldError.forbidden(p.child('securityContext', key), why));
  }
  return errs;
}

/** ValidateQualifiedName over a list: readiness gate condition types, scheduling gate names. */
function qualifiedName(value: string, path: FieldPath): ErrorList {
  return invalidAll(isQualifiedName(value), value, path);
}

/** validateSchedulingGates: qualified names, no duplicates. */
function validateSchedulingGates(spec: PodSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  (spec.schedulingGates ?? []).forEach((gate, i) => {
    const name = (gate as { name?: string }).name ?? '';
    errs.push(...qualifiedName(name, path.index(i)));
    if (seen.has(name)) errs.push(FieldError.duplicate(path.index(i), name));
    seen.add(name);
  });
  return errs;
}

/** ValidateHostAliases: an IP and DNS subdomains. */
function validateHostAliases(spec: PodSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  (spec.hostAliases ?? []).forEach((alias, i) => {
    const p = path.index(i);
    const ip = (alias as { ip?: string }).ip ?? '';
    if (!isIPSloppy(ip)) errs.push(...isValidIPForLegacyField(p.child('ip'), ip));
    (alias.hostnames ?? []).forEach((h, j) =>
      errs.push(...invalidAll(isDNS1123Subdomain(h), h, p.child('hostnames').index(j))),
    );
  });
  return errs;
}

export interface PodSpecOptions extends SecurityContextOptions {
  /** The old pod's affinity selectors already held a value that is not a label value (AllowInvalidLabelValueInSelector). */
  readonly allowInvalidAffinitySelectorValue?: boolean;
  /** The old pod's spread constraint selectors already failed their checks. */
  readonly allowInvalidSpreadSelector?: boolean;
}

/** ValidatePodSpec's own checks after the containers, in its order. */
export function validatePodSpecFields(spec: PodSpec, path: FieldPath, opts: PodSpecOptions = {}): ErrorList {
  const errs: ErrorList = [];
  errs.push(...validateEnum(spec.restartPolicy, restartPolicies, path.child('restartPolicy')));
  errs.push(...validateEnum(spec.dnsPolicy, dnsPolicies, path.child('dnsPolicy')));
  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec, path.child('securityContext'), opts));
  errs.push(
    ...validateAffinity(spec.affinity, path.child('affinity'), {
      allowInvalidLabelValue: opts.allowInvalidAffinitySelectorValue === true,
    }),
  );
  errs.push(...validatePodDNSConfig(spec, path.child('dnsConfig')));
  (spec.readinessGates ?? []).forEach((gate, i) =>
    errs.push(
      ...qualifiedName(
        (gate as { conditionType?: string }).conditionType ?? '',
        path.child('readinessGates').index(i).child('conditionType'),
      ),
    ),
  );
  errs.push(...validateSchedulingGates(spec, path.child('schedulingGates')));
  errs.push(
    ...validateTopologySpreadConstraints(spec, path.child('topologySpreadConstraints'), {
      allowInvalidSelector: opts.allowInvalidSpreadSelector === true,
    }),
  );
  errs.push(...validateWindowsHostProcessPod(spec, path));
  errs.push(...validateHostUsers(spec, path));
  errs.push(...validateNamesAndTimes(spec, path));
  errs.push(...validateTolerations(spec.tolerations, path.child('tolerations')));
  errs.push(...validateHostAliases(spec, path.child('hostAliases')));
  errs.push(...validateClasses(spec, path));
  // validateOverhead: the overhead checked as a container's limits are.
  const overhead = (spec as { overhead?: PodSpec['overhead'] | null }).overhead;
  if (overhead != null)
    errs.push(...validateResourceRequirements({ limits: overhead }, path.child('overhead')));
  errs.push(...validateOS(spec, path));
  return errs;
}

/** validateOS: a known name, and then that OS's checks (none when the name is refused). */
function validateOS(spec: PodSpec, path: FieldPath): ErrorList {
  const os = (spec as { os?: { name?: string | null } | null }).os;
  if (os == null) return [];
  const name = os.name ?? '';
  if (name === '') return [FieldError.required(path.child('os', 'name'), 'cannot be empty')];
  if (name === 'linux') return validateLinux(spec, path);
  if (name === 'windows') return validateWindows(spec, path);
  return [FieldError.notSupported(path.child('os'), name, validOS)];
}

/** serviceAccountName, nodeName, activeDeadlineSeconds, hostname and subdomain. */
function validateNamesAndTimes(spec: PodSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const sa = spec.serviceAccountName ?? '';
  if (sa !== '')
    errs.push(...invalidAll(nameIsDNSSubdomain(sa, false), sa, path.child('serviceAccountName')));
  const node = spec.nodeName ?? '';
  if (node !== '') errs.push(...invalidAll(nameIsDNSSubdomain(node, false), node, path.child('nodeName')));
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && (deadline < 1 || deadline > maxInt32))
    errs.push(
      FieldError.invalid(path.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(1, maxInt32)),
    );
  const hostname = spec.hostname ?? '';
  if (hostname !== '') errs.push(...invalidAll(isDNS1123Label(hostname), hostname, path.child('hostname')));
  const subdomain = spec.subdomain ?? '';
  if (subdomain !== '')
    errs.push(...invalidAll(isDNS1123Label(subdomain), subdomain, path.child('subdomain')));
  return errs;
}

/**
 * priorityClassName, runtimeClassName and preemptionPolicy. No check of a negative grace period: kube
 * has none (a pod's is made 1 as it is decoded, a template's is kept).
 */
function validateClasses(spec: PodSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const priorityClass = spec.priorityClassName ?? '';
  if (priorityClass !== '')
    errs.push(
      ...invalidAll(nameIsDNSSubdomain(priorityClass, false), priorityClass, path.child('priorityClassName')),
    );
  const runtimeClass = spec.runtimeClassName;
  if (runtimeClass !== undefined)
    errs.push(
      ...invalidAll(nameIsDNSSubdomain(runtimeClass, false), runtimeClass, path.child('runtimeClassName')),
    );
  if (spec.preemptionPolicy !== undefined)
    errs.push(...validateEnum(spec.preemptionPolicy, preemptionPolicies, path.child('preemptionPolicy')));
  return errs;
}
