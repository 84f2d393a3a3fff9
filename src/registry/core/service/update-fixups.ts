// What the service REST does to a request's object before allocating (pkg/registry/core/service/
// storage/rest.go): keep allocated values a client left out, and keep clusterIP and clusterIPs in step.
import type { Service } from '../../../api/core/v1/service.js';
import { needsClusterIP, needsHealthCheckNodePort, needsNodePort, sameStrings } from './service-helpers.js';

/** patchAllocatedValues: an update that omits allocated IPs or node ports keeps the old ones. */
export function patchAllocatedValues(svc: Service, old: Service): void {
  const s = (svc.spec ??= {});
  const o = old.spec ?? {};
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if ((s.clusterIP ?? '') === '' && o.clusterIP !== undefined) s.clusterIP = o.clusterIP;
    if ((s.clusterIPs ?? []).length === 0 && (o.clusterIPs ?? []).length > 0)
      s.clusterIPs = [...(o.clusterIPs ?? [])];
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const used = (x: Service): Set<number> => new Set((x.spec?.ports ?? []).map((p) => p.nodePort ?? 0));
    const oldUsed = used(old);
    const taken = new Set([...used(svc)].filter((p) => oldUsed.has(p)));
    const byName = new Map((o.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0] as const));
    for (const p of s.ports ?? []) {
      if ((p.nodePort ?? 0) !== 0) continue;
      const prior = byName.get(p.name ?? '') ?? 0;
      if (prior !== 0 && !taken.has(prior)) p.nodePort = prior;
    }
  }
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(svc) && (s.healthCheckNodePort ?? 0) === 0) {
    if (o.healthCheckNodePort !== undefined) s.healthCheckNodePort = o.healthCheckNodePort;
  }
}

/** normalizeClusterIPs: old clients send clusterIP alone; clear or change both together. */
export function normalizeClusterIPs(svc: Service, old: Service | null): void {
  const s = (svc.spec ??= {});
  const ip = s.clusterIP ?? '';
  if (old === null) {
    if (ip !== '' && (s.clusterIPs ?? []).length === 0) s.clusterIPs = [ip];
    return;
  }
  const o = old.spec ?? {};
  const oldIP = o.clusterIP ?? '';
  if ((o.clusterIPs ?? []).length > 0 && (s.clusterIPs ?? []).length === 0 && oldIP === ip) {
    s.clusterIPs = [...(o.clusterIPs ?? [])];
  }
  if (oldIP === ip) return;
  const same = sameStrings(s.clusterIPs, o.clusterIPs);
  if (oldIP !== '' && ip === '') {
    if (same) delete s.clusterIPs;
  } else if (same) {
    s.clusterIPs = [ip];
  }
}
