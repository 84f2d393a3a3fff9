// The pod security context as validatePodSpecSecurityContext checks it (pkg/apis/core/validation/
// validation.go): user and group IDs, shareProcessNamespace with hostPID, sysctls (names, duplicates,
// and none a host namespace would share), the fsGroup and supplemental groups policies, seccomp, the
// Windows options, AppArmor and the SELinux change policy.
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import {
  validateAppArmorProfileField,
  validateID,
  validateSeccompProfileField,
  validateWindowsOptions,
} from './security-context.js';

const fsGroupChangePolicies = ['Always', 'OnRootMismatch'];
const supplementalGroupsPolicies = ['Merge', 'Strict'];
const seLinuxChangePolicies = ['MountOption', 'Recursive'];
const onlyRecursive = ['Recursive'];
const sysctlSegment = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const sysctlPattern = `^(${sysctlSegment}[\\./])*${sysctlSegment}$`;
const sysctlRegexp = new RegExp(sysctlPattern);
const sysctlMaxLength = 253;

/** The namespace of a namespaced sysctl the host's network or IPC namespace would share (utilsysctl.GetNamespace). */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  // A slash-separated name is read with its separators swapped (NormalizeName).
  const first = name.search(/[./]/);
  const normal =
    first >= 0 && name[first] === '/' ? name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.')) : name;
  if (normal.startsWith('net.')) return 'net';
  const ipc = ['kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced'];
  if (
    ipc.includes(normal) ||
    ['kernel.shm', 'kernel.msg', 'fs.mqueue.'].some((pre) => normal.startsWith(pre))
  )
    return 'ipc';
  return undefined;
}

/** validateSysctls, with ValidateHostSysctl unless the old pod already had such a sysctl. */
function validateSysctls(spec: PodSpec, path: FieldPath, allowHostSysctls: boolean): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  (spec.securityContext?.sysctls ?? []).forEach((s, i) => {
    const p = path.index(i).child('name');
    // The decoder does not enforce required fields: an item may leave its name out.
    const name = (s as { name?: string }).name ?? '';
    if (name === '') errs.push(FieldError.required(p));
    else if (name.length > sysctlMaxLength || !sysctlRegexp.test(name))
      errs.push(
        FieldError.invalid(
          p,
          name,
          `must have at most ${String(sysctlMaxLength)} characters and match regex ${sysctlPattern}`,
        ),
      );
    else if (seen.has(name)) errs.push(FieldError.duplicate(p, name));
    if (!allowHostSysctls) {
      const ns = sysctlNamespace(name);
      if (spec.hostNetwork === true && ns === 'net')
        errs.push(FieldError.invalid(p, name, "may not be specified when 'hostNetwork' is true"));
      else if (spec.hostIPC === true && ns === 'ipc')
        errs.push(FieldError.invalid(p, name, "may not be specified when 'hostIPC' is true"));
    }
    seen.add(name);
  });
  return errs;
}

/** Whether a spec has a sysctl that ValidateHostSysctl refuses (an old pod's lets the new one keep it). */
export function hasHostSysctl(spec: PodSpec | undefined): boolean {
  return (spec?.securityContext?.sysctls ?? []).some((s) => {
    const ns = sysctlNamespace((s as { name?: string }).name ?? '');
    return (spec?.hostNetwork === true && ns === 'net') || (spec?.hostIPC === true && ns === 'ipc');
  });
}

/** What an update may keep that a create may not, as far as the pod security context goes. */
export interface SecurityContextOptions {
  /** The old pod already had a namespaced sysctl shared with the host (AllowNamespacedSysctlsForHostNetAndHostIPC). */
  readonly allowHostSysctls?: boolean;
  /**
   * The old pod already had a seLinuxChangePolicy. With SELinuxMount off (beta, off by default in
   * 1.33) kube allows only Recursive unless so (useOnlyRecursiveSELinuxChangePolicy).
   */
  readonly allowAnySELinuxChangePolicy?: boolean;
}

/** validatePodSpecSecurityContext (the v1 spec keeps shareProcessNamespace and the host flags outside it). */
export function validatePodSecurityContext(
  spec: PodSpec,
  path: FieldPath,
  opts: SecurityContextOptions,
): ErrorList {
  const sc = spec.securityContext ?? {};
  const errs = [
    ...validateID(sc.fsGroup, path.child('fsGroup')),
    ...validateID(sc.runAsUser, path.child('runAsUser')),
    ...validateID(sc.runAsGroup, path.child('runAsGroup')),
  ];
  (sc.supplementalGroups ?? []).forEach((gid, i) =>
    errs.push(...validateID(gid, path.child('supplementalGroups').index(i))),
  );
  if (spec.shareProcessNamespace === true && spec.hostPID === true)
    errs.push(
      FieldError.invalid(
        path.child('shareProcessNamespace'),
        true,
        'ShareProcessNamespace and HostPID cannot both be enabled',
      ),
    );
  errs.push(...validateSysctls(spec, path.child('sysctls'), opts.allowHostSysctls === true));
  if (sc.fsGroupChangePolicy !== undefined && !fsGroupChangePolicies.includes(sc.fsGroupChangePolicy))
    errs.push(
      FieldError.notSupported(
        path.child('fsGroupChangePolicy'),
        sc.fsGroupChangePolicy,
        fsGroupChangePolicies,
      ),
    );
  errs.push(...validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.windowsOptions != null)
    errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, path.child('appArmorProfile')));
  const groupsPolicy = sc.supplementalGroupsPolicy;
  if (groupsPolicy !== undefined && !supplementalGroupsPolicies.includes(groupsPolicy))
    errs.push(
      FieldError.notSupported(
        path.child('supplementalGroupsPolicy'),
        groupsPolicy,
        supplementalGroupsPolicies,
      ),
    );
  const changePolicy = sc.seLinuxChangePolicy;
  if (changePolicy != null) {
    const allowed = opts.allowAnySELinuxChangePolicy === true ? seLinuxChangePolicies : onlyRecursive;
    if (!allowed.includes(changePolicy))
      errs.push(FieldError.notSupported(path.child('seLinuxChangePolicy'), changePolicy, allowed));
  }
  return errs;
}
