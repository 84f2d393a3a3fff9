// The Baseline level's checks of pod-security-admission's "latest" policy: each returns kube's
// forbidden reason and detail, or undefined when the pod passes.
import {
  allContainers,
  containersText,
  inUserNamespace,
  joinQuote,
  nameOf,
  pluralize,
  settersText,
  sortedSet,
  type CheckResult,
  type PodMetaView,
  type PodSpecView,
  type SecurityContextView,
  volumeName,
} from './shape.js';

/** Containers whose securityContext matches, in visiting order. */
const containersWhere = (spec: PodSpecView, bad: (sc: SecurityContextView) => boolean): string[] =>
  allContainers(spec)
    .filter((c) => c.securityContext !== undefined && bad(c.securityContext))
    .map(nameOf);

export function windowsHostProcess(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const pod = spec.securityContext?.windowsOptions?.hostProcess === true;
  const names = containersWhere(spec, (sc) => sc.windowsOptions?.hostProcess === true);
  if (!pod && names.length === 0) return undefined;
  return {
    reason: 'hostProcess',
    detail: `${settersText(pod, names)} must not set securityContext.windowsOptions.hostProcess=true`,
  };
}

export function hostNamespaces(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const set: string[] = [];
  if (spec.hostNetwork === true) set.push('hostNetwork=true');
  if (spec.hostPID === true) set.push('hostPID=true');
  if (spec.hostIPC === true) set.push('hostIPC=true');
  return set.length === 0 ? undefined : { reason: 'host namespaces', detail: set.join(', ') };
}

export function privileged(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const names = containersWhere(spec, (sc) => sc.privileged === true);
  if (names.length === 0) return undefined;
  return {
    reason: 'privileged',
    detail: `${containersText(names)} must not set securityContext.privileged=true`,
  };
}

const baselineCapabilities: ReadonlySet<string> = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

export function capabilitiesBaseline(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const names: string[] = [];
  const caps: string[] = [];
  for (const c of allContainers(spec)) {
    const extra = (c.securityContext?.capabilities?.add ?? []).filter(
      (cap) => !baselineCapabilities.has(cap),
    );
    if (extra.length === 0) continue;
    names.push(nameOf(c));
    caps.push(...extra);
  }
  if (names.length === 0) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containersText(names)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
  };
}

export function hostPathVolumes(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const names = (spec.volumes ?? [])
    .filter((v) => v['hostPath'] !== undefined && v['hostPath'] !== null)
    .map(volumeName);
  if (names.length === 0) return undefined;
  return {
    reason: 'hostPath volumes',
    detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`,
  };
}

export function hostPorts(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const names: string[] = [];
  const ports: string[] = [];
  for (const c of allContainers(spec)) {
    const used = (c.ports ?? []).map((p) => p.hostPort ?? 0).filter((p) => p !== 0);
    if (used.length === 0) continue;
    names.push(nameOf(c));
    ports.push(...used.map(String));
  }
  if (names.length === 0) return undefined;
  const list = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail: `${containersText(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`,
  };
}

const appArmorAnnotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const allowedProfileType = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';

export function appArmorProfile(meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const values: string[] = [];
  const badType = (sc: SecurityContextView): boolean => {
    if (sc.appArmorProfile === undefined || allowedProfileType(sc.appArmorProfile.type)) return false;
    values.push(sc.appArmorProfile.type ?? '');
    return true;
  };
  const pod = spec.securityContext !== undefined && badType(spec.securityContext);
  const names = containersWhere(spec, badType);
  if (pod || names.length > 0) {
    const list = sortedSet(values);
    return {
      reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', list.length),
      detail: `${settersText(pod, names)} must not set securityContext.appArmorProfile.type to ${joinQuote(list)}`,
    };
  }
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(([k]) => k.startsWith(appArmorAnnotationPrefix))
    .filter(([, v]) => v !== '' && v !== 'runtime/default' && !v.startsWith('localhost/'))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .sort();
  if (annotations.length === 0) return undefined;
  return {
    reason: pluralize('forbidden AppArmor annotation', 'forbidden AppArmor annotations', annotations.length),
    detail: annotations.join(', '),
  };
}

const seLinuxTypes: ReadonlySet<string> = new Set([
  '',
  'container_t',
  'container_init_t',
  'container_kvm_t',
  'container_engine_t',
]);

export function seLinuxOptions(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const types: string[] = [];
  const set = { user: false, role: false };
  const bad = (sc: SecurityContextView): boolean => {
    const o = sc.seLinuxOptions;
    if (o === undefined) return false;
    let forbidden = false;
    if (!seLinuxTypes.has(o.type ?? '')) {
      types.push(o.type ?? '');
      forbidden = true;
    }
    if ((o.user ?? '') !== '') set.user = forbidden = true;
    if ((o.role ?? '') !== '') set.role = forbidden = true;
    return forbidden;
  };
  const pod = spec.securityContext !== undefined && bad(spec.securityContext);
  const names = containersWhere(spec, bad);
  if (!pod && names.length === 0) return undefined;
  const data: string[] = [];
  const list = sortedSet(types);
  if (list.length > 0) data.push(`${pluralize('type', 'types', list.length)} ${joinQuote(list)}`);
  if (set.user) data.push('user may not be set');
  if (set.role) data.push('role may not be set');
  return {
    reason: 'seLinuxOptions',
    detail: `${settersText(pod, names)} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`,
  };
}

export function procMount(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  if (inUserNamespace(spec)) return undefined;
  const types: string[] = [];
  const names = containersWhere(spec, (sc) => {
    if (sc.procMount === undefined || sc.procMount === 'Default') return false;
    types.push(sc.procMount);
    return true;
  });
  if (names.length === 0) return undefined;
  return {
    reason: 'procMount',
    detail: `${containersText(names)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  };
}

export function seccompProfileBaseline(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const unconfined = (sc: SecurityContextView): boolean => sc.seccompProfile?.type === 'Unconfined';
  const pod = spec.securityContext !== undefined && unconfined(spec.securityContext);
  const names = containersWhere(spec, unconfined);
  if (!pod && names.length === 0) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `${settersText(pod, names)} must not set securityContext.seccompProfile.type to "Unconfined"`,
  };
}

const safeSysctls: ReadonlySet<string> = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
]);

export function sysctls(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const bad = (spec.securityContext?.sysctls ?? [])
    .map((s) => s.name ?? '')
    .filter((n) => !safeSysctls.has(n));
  return bad.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: sortedSet(bad).join(', ') };
}
