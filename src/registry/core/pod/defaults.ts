// The v1 defaults of pkg/apis/core/v1/defaults.go that depend on other fields, so the schema cannot
// state them: imagePullPolicy from the image tag, requests from limits, and the plain ones for
// objects that reach the registry without passing the decoder (the schema sets those on the wire).
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';

/** SetDefaults_Container: Always for `:latest` or an untagged image, else IfNotPresent. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  const tag = colon < 0 ? '' : image.slice(colon + 1);
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: Container): void {
  c.imagePullPolicy ??= defaultPullPolicy(c.image ?? '');
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  for (const p of c.ports ?? []) p.protocol ??= 'TCP';
  // SetDefaults_Pod: a limit without a request requests the limit.
  const limits = c.resources?.limits;
  if (limits !== undefined) {
    const requests = { ...c.resources?.requests };
    for (const [name, value] of Object.entries(limits)) requests[name] ??= value;
    c.resources = { ...c.resources, requests };
  }
}

function defaultSpec(spec: PodSpec): void {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.enableServiceLinks ??= true;
  spec.securityContext ??= {};
  for (const c of spec.containers) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
}

/** Fills the defaults in place. */
export function setPodDefaults(pod: Pod): void {
  const spec = (pod.spec ??= { containers: [] });
  if ((spec as Partial<PodSpec>).containers === undefined) spec.containers = [];
  defaultSpec(spec);
}
