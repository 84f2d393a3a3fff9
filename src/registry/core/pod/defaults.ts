// The v1 defaults of pkg/apis/core/v1/defaults.go that the schema cannot state (they depend on other
// fields, or replace a zero rather than fill a gap), and the plain ones for objects that reach the
// registry without passing the decoder. SetDefaults_PodSpec, _Container, _Volume, _Probe,
// _HTTPGetAction, _ObjectFieldSelector and _ResourceList reach every pod spec, templates included;
// SetDefaults_Pod (requests from limits, enableServiceLinks, host ports under hostNetwork), the
// ResourceLists of the status and the conversion's negative grace period fix only a Pod's.
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import type { Handler, Probe } from '../../../api/core/v1/probe.js';
import type { Volume } from '../../../api/core/v1/volume.js';
import { memberOf, setMember } from '../../../machinery/json/set-member.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';

/**
 * SetDefaults_Container's pull policy: Always when the tag is `latest` (an image with neither tag
 * nor digest is `latest`), else IfNotPresent.
 */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const at = image.indexOf('@');
  const named = at < 0 ? image : image.slice(0, at);
  const lastSlash = named.lastIndexOf('/');
  const colon = named.indexOf(':', lastSlash + 1);
  const tag = colon < 0 ? (at < 0 ? 'latest' : '') : named.slice(colon + 1);
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** SetDefaults_HTTPGetAction. */
function defaultHandler(h: Handler | undefined): void {
  if (h?.httpGet === undefined) return;
  if ((h.httpGet.path ?? '') === '') h.httpGet.path = '/';
  if ((h.httpGet.scheme ?? '') === '') h.httpGet.scheme = 'HTTP';
}

/** SetDefaults_Probe: zero (or missing) timings take kube's values. */
function defaultProbe(p: Probe | undefined): void {
  if (p === undefined) return;
  defaultHandler(p);
  if ((p.timeoutSeconds ?? 0) === 0) p.timeoutSeconds = 1;
  if ((p.periodSeconds ?? 0) === 0) p.periodSeconds = 10;
  if ((p.successThreshold ?? 0) === 0) p.successThreshold = 1;
  if ((p.failureThreshold ?? 0) === 0) p.failureThreshold = 3;
}

/** SetDefaults_ObjectFieldSelector: a field reference without an apiVersion means v1. */
function defaultFieldRef(ref: { apiVersion?: string } | undefined): void {
  if (ref !== undefined && (ref.apiVersion ?? '') === '') ref.apiVersion = 'v1';
}

/** SetDefaults_Container and the defaulters of what a container holds. */
function defaultContainer(c: Container): void {
  if ((c.imagePullPolicy ?? '') === '') c.imagePullPolicy = defaultPullPolicy(c.image ?? '');
  if ((c.terminationMessagePath ?? '') === '') c.terminationMessagePath = '/dev/termination-log';
  if ((c.terminationMessagePolicy ?? '') === '') c.terminationMessagePolicy = 'File';
  for (const p of c.ports ?? []) if ((p.protocol ?? '') === '') p.protocol = 'TCP';
  for (const e of c.env ?? []) defaultFieldRef(e.valueFrom?.fieldRef);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultHandler(c.lifecycle?.postStart);
  defaultHandler(c.lifecycle?.preStop);
  roundUpResourceList(c.resources?.limits);
  roundUpResourceList(c.resources?.requests);
}

/** Whether a volume has a member besides its name (a source, or something validation refuses). */
function hasSource(v: Volume): boolean {
  for (const k in v)
    if (k !== 'name' && (v as unknown as Record<string, unknown>)[k] !== undefined) return true;
  return false;
}

/** SetDefaults_Volume: a volume that names no source is an emptyDir. */
function defaultVolume(v: Volume): void {
  if (!hasSource(v)) v.emptyDir = {};
  for (const file of v.downwardAPI?.items ?? []) defaultFieldRef(file.fieldRef);
  for (const source of v.projected?.sources ?? [])
    for (const file of source.downwardAPI?.items ?? []) defaultFieldRef(file.fieldRef);
  const claim = v.ephemeral?.volumeClaimTemplate?.spec;
  roundUpResourceList(claim?.resources?.limits);
  roundUpResourceList(claim?.resources?.requests);
}

/** SetDefaults_PodSpec with the defaulters of its volumes and containers: pods and templates alike. */
export function setPodSpecDefaults(spec: PodSpec): void {
  if ((spec as Partial<PodSpec>).containers === undefined) spec.containers = [];
  if ((spec.dnsPolicy ?? '') === '') spec.dnsPolicy = 'ClusterFirst';
  if ((spec.restartPolicy ?? '') === '') spec.restartPolicy = 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  if ((spec.schedulerName ?? '') === '') spec.schedulerName = 'default-scheduler';
  for (const v of spec.volumes ?? []) defaultVolume(v);
  for (const c of spec.containers) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c);
  roundUpResourceList(spec.overhead);
  roundUpResourceList(spec.resources?.limits);
  roundUpResourceList(spec.resources?.requests);
}

/**
 * SetDefaults_Pod: a limit without a request requests the limit. A container whose limits are all
 * requested already is left as it is: the registry defaults again after admission, and an update's
 * container is often the live one's.
 */
function requestLimits(c: Container): void {
  const limits = c.resources?.limits;
  if (limits === undefined) return;
  const had = c.resources?.requests;
  let missing = had === undefined;
  if (had !== undefined) for (const name in limits) if (memberOf(had, name) == null) missing = true;
  if (!missing) return;
  const requests = { ...had };
  for (const [name, value] of Object.entries(limits))
    if (memberOf(requests, name) == null) setMember(requests, name, value);
  c.resources = { ...c.resources, requests };
}

/** SetDefaults_Pod's host network rule: a container port is also a host port. */
function hostPorts(c: Container): void {
  for (const p of c.ports ?? []) if ((p.hostPort ?? 0) === 0) p.hostPort = p.containerPort;
}

/** Fills a Pod's defaults in place: the spec's, then those only a Pod gets. */
export function setPodDefaults(pod: Pod): void {
  const spec = (pod.spec ??= { containers: [] });
  setPodSpecDefaults(spec);
  // Convert_v1_Pod_To_core_Pod (pkg/apis/core/v1/conversion.go): a pod's negative grace period reads
  // as 1 second, so kube never validates or stores one; a template keeps its own.
  if ((spec.terminationGracePeriodSeconds ?? 0) < 0) spec.terminationGracePeriodSeconds = 1;
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
    requestLimits(c);
    if (spec.hostNetwork === true) hostPorts(c);
  }
  spec.enableServiceLinks ??= true;
  const status = pod.status;
  if (status === undefined) return;
  for (const list of [
    status.initContainerStatuses,
    status.containerStatuses,
    status.ephemeralContainerStatuses,
  ])
    for (const s of list ?? []) {
      roundUpResourceList(s.allocatedResources);
      roundUpResourceList(s.resources?.limits);
      roundUpResourceList(s.resources?.requests);
    }
}

/**
 * setPodDefaults for a pod past admission (the strategy's prepare steps): the overhead RuntimeClass
 * admission copied in stays as the RuntimeClass has it. kube defaults only as it decodes, before
 * admission, and node.k8s.io/v1 has no defaulters, so a sub-milli overhead is stored unrounded (and
 * rounding it here would fail the admission's own check that it matches the RuntimeClass).
 */
export function setAdmittedPodDefaults(pod: Pod): void {
  const overhead = pod.spec?.overhead;
  const kept = overhead === undefined ? undefined : { ...overhead };
  setPodDefaults(pod);
  if (kept !== undefined && pod.spec !== undefined) pod.spec.overhead = kept;
}
