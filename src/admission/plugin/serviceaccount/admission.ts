// ServiceAccount admission (plugin/pkg/admission/serviceaccount/admission.go), enabled by default in
// kube-apiserver: a new pod runs as a service account (`default` unless it names one), which must
// exist; unless the pod or the account opts out, every container and init container gets the
// account's API credentials as a projected volume (a bound token, the cluster CA, the namespace)
// mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount; the pod takes the account's
// imagePullSecrets when it has none. Mirror pods (static pods a kubelet mirrors) may reference no
// service account, secret or token projection. An account annotated
// `kubernetes.io/enforce-mountable-secrets: "true"` limits its pods (and ephemeral containers added
// later) to the secrets it lists.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Container } from '../../../api/core/v1/container.js';
import { mirrorPodAnnotation, type Pod, type PodSpec } from '../../../api/core/v1/pod.js';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import type { Volume, VolumeProjection } from '../../../api/core/v1/volume.js';
import { isStatusError, newNotFound } from '../../../machinery/errors/index.js';
import { simpleNameGenerator } from '../../../registry/generic/name-generator.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import {
  handlesOnly,
  type AdmissionResult,
  withLookup,
  type MutationInterface,
  type ValidationInterface,
} from '../../interfaces.js';
import { listerGet, listerGetNow } from '../../../registry/rest/lister-read.js';

export const serviceAccountPluginName = 'ServiceAccount';

/** The account a pod runs as when it names none. */
export const defaultServiceAccountName = 'default';
/** The prefix of the generated credentials volume's name. */
export const serviceAccountVolumeName = 'kube-api-access';
/** Where containers find the credentials (DefaultAPITokenMountPath). */
export const defaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
/** api.MirrorPodAnnotationKey. */
/** Limits an account's pods to the secrets the account lists. */
export const enforceMountableSecretsAnnotation = 'kubernetes.io/enforce-mountable-secrets';
/** The ConfigMap the root-ca-cert-publisher keeps in every namespace. */
export const rootCACertConfigMapName = 'kube-root-ca.crt';
/**
 * serviceaccount.WarnOnlyBoundTokenExpirationSeconds: an hour and 7 seconds, the marker by which
 * kube recognises (and only warns about) an expired token of this volume.
 */
export const warnOnlyBoundTokenExpirationSeconds = 3607;
/** Go's 0644: ProjectedVolumeSourceDefaultMode, set explicitly on the volume as kube does. */
const projectedVolumeDefaultMode = 420;

export interface ServiceAccountAdmissionOptions {
  /** The serviceaccounts storage (or anything that reads one by namespace and name). */
  readonly serviceAccounts: Getter;
  /** Adds the credentials volume (kube's MountServiceAccountToken; default true). */
  readonly mountServiceAccountToken?: boolean;
  /** The five random characters after `kube-api-access-`; tests fix them. */
  readonly generateName?: (base: string) => string;
  /** Pause between live reads of a `default` account not created yet (kube: 100–200 ms). */
  readonly retryIntervalMs?: number;
}

// Only pods and their ephemeralcontainers subresource, with an object to look at.
function podOf(a: Attributes): Pod | undefined {
  if (a.resource.group !== '' || a.resource.resource !== 'pods') return undefined;
  if (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') return undefined;
  if (a.object === null || (a.object.kind !== undefined && a.object.kind !== 'Pod')) return undefined;
  return a.object as Pod;
}

const isMirrorPod = (pod: Pod): boolean =>
  Object.prototype.hasOwnProperty.call(pod.metadata?.annotations ?? {}, mirrorPodAnnotation);

/** The pod's own choice wins, then the account's; the default is to mount (shouldAutomount). */
function shouldAutomount(sa: ServiceAccount, pod: Pod): boolean {
  return pod.spec?.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
}

/** Whether the pod names any secret (podutil.VisitPodSecretNames over the sources Capstan knows). */
function referencesSecrets(pod: Pod): boolean {
  const spec = pod.spec;
  if (spec === undefined) return false;
  if ((spec.imagePullSecrets ?? []).length > 0) return true;
  const containers: Container[] = [
    ...(spec.initContainers ?? []),
    ...spec.containers,
    ...(spec.ephemeralContainers ?? []),
  ];
  for (const c of containers) {
    if ((c.envFrom ?? []).some((e) => e.secretRef !== undefined)) return true;
    if ((c.env ?? []).some((e) => e.valueFrom?.secretKeyRef !== undefined)) return true;
  }
  for (const v of spec.volumes ?? []) {
    if (v.secret !== undefined) return true;
    if ((v.projected?.sources ?? []).some((s) => s.secret !== undefined)) return true;
  }
  return false;
}

/** Go's strconv.ParseBool true values. */
const goTrue: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

const enforcesMountableSecrets = (sa: ServiceAccount): boolean =>
  goTrue.has(sa.metadata?.annotations?.[enforceMountableSecretsAnnotation] ?? '');

const notReferenced = (sa: ServiceAccount, what: string): string =>
  `${what} is not allowed because service account ${sa.metadata?.name ?? ''} does not reference that secret`;

/** The first secret reference of these containers the account does not list (env and envFrom). */
function unlistedContainerSecret(
  containers: readonly Container[],
  opts: { label: string; allowed: ReadonlySet<string>; sa: ServiceAccount },
): string | undefined {
  const { label, allowed, sa } = opts;
  for (const c of containers) {
    for (const env of c.env ?? []) {
      const ref = env.valueFrom?.secretKeyRef;
      if (ref !== undefined && !allowed.has(ref.name ?? ''))
        return notReferenced(
          sa,
          `${label} ${c.name} with envVar ${env.name} referencing secret.secretName="${ref.name ?? ''}"`,
        );
    }
    for (const from of c.envFrom ?? []) {
      const ref = from.secretRef;
      if (ref !== undefined && !allowed.has(ref.name ?? ''))
        return notReferenced(
          sa,
          `${label} ${c.name} with envFrom referencing secret.secretName="${ref.name ?? ''}"`,
        );
    }
  }
  return undefined;
}

/** limitSecretReferences: why the pod may not run as this account, if it may not. */
function unlistedSecret(sa: ServiceAccount, pod: Pod): string | undefined {
  const spec = pod.spec;
  if (spec === undefined) return undefined;
  const allowed = new Set((sa.secrets ?? []).map((s) => s.name ?? ''));
  for (const v of spec.volumes ?? []) {
    if (v.secret === undefined) continue;
    const name = v.secret.secretName ?? '';
    if (!allowed.has(name)) return notReferenced(sa, `volume with secret.secretName="${name}"`);
  }
  const fromContainers =
    unlistedContainerSecret(spec.initContainers ?? [], { label: 'init container', allowed, sa }) ??
    unlistedContainerSecret(spec.containers, { label: 'container', allowed, sa });
  if (fromContainers !== undefined) return fromContainers;
  const pullable = new Set((sa.imagePullSecrets ?? []).map((s) => s.name ?? ''));
  for (const [i, ref] of (spec.imagePullSecrets ?? []).entries()) {
    const name = ref.name ?? '';
    if (!pullable.has(name)) {
      return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${sa.metadata?.name ?? ''} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** Refused when the account enforces mountable secrets and the pod uses one it does not list. */
function refuseUnlistedSecret(a: Attributes, pod: Pod, sa: ServiceAccount): void {
  const refused = enforcesMountableSecrets(sa) ? unlistedSecret(sa, pod) : undefined;
  if (refused !== undefined) throw newAdmissionForbidden(a, refused);
}

const usesTokenProjection = (pod: Pod): boolean =>
  (pod.spec?.volumes ?? []).some((v) =>
    (v.projected?.sources ?? []).some((s) => s.serviceAccountToken !== undefined),
  );

/** TokenVolumeSource: a bound token, the cluster's CA bundle and the pod's namespace. */
export function tokenVolume(name: string): Volume {
  const sources: VolumeProjection[] = [
    { serviceAccountToken: { expirationSeconds: warnOnlyBoundTokenExpirationSeconds, path: 'token' } },
    { configMap: { name: rootCACertConfigMapName, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    {
      downwardAPI: {
        items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
      },
    },
  ];
  return { name, projected: { sources, defaultMode: projectedVolumeDefaultMode } };
}

// Admission runs before validation, on a decoded body that may lack what its type requires; Go
// would see empty values there.
const nameOf = (v: { readonly name?: string }): string => v.name ?? '';
const listOf = <T>(list: readonly T[] | undefined): readonly T[] => list ?? [];

export class ServiceAccountAdmission implements MutationInterface, ValidationInterface {
  readonly #serviceAccounts: Getter;
  // The account each request found (see #lookup): only the account, the watch cache's, as a
  // WeakMap's values outlive their keys (docs/architecture.md: what a request makes dies young).
  readonly #found = new WeakMap<RequestContext, ServiceAccount>();
  readonly #mount: boolean;
  readonly #generateName: (base: string) => string;
  readonly #retryIntervalMs: number | undefined;
  readonly handles = handlesOnly('CREATE', 'UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['pods']);

  constructor(opts: ServiceAccountAdmissionOptions) {
    this.#serviceAccounts = opts.serviceAccounts;
    this.#mount = opts.mountServiceAccountToken ?? true;
    this.#generateName = opts.generateName ?? ((base) => simpleNameGenerator.generateName(base));
    this.#retryIntervalMs = opts.retryIntervalMs;
  }

  admit(ctx: RequestContext, a: Attributes): AdmissionResult {
    const pod = podOf(a);
    // Only creates are changed.
    if (pod === undefined || a.operation !== 'CREATE') return undefined;
    // A mirror pod's spec must stay the kubelet's: only checked.
    if (isMirrorPod(pod)) return this.validate(ctx, a);
    const spec = pod.spec;
    if (spec === undefined) return undefined;
    // serviceAccount is the deprecated alias: v1 conversion takes it when the new field is empty,
    // and writes the name back to it.
    const name = spec.serviceAccountName || spec.serviceAccount || defaultServiceAccountName;
    spec.serviceAccountName = name;
    spec.serviceAccount = name;
    return withLookup(
      this.#lookupNow(ctx, a, name),
      () => this.#lookup(ctx, a, name),
      (sa) => this.#admitWith(ctx, a, { pod, spec, sa }),
    );
  }

  #admitWith(
    ctx: RequestContext,
    a: Attributes,
    of: { readonly pod: Pod; readonly spec: PodSpec; readonly sa: ServiceAccount },
  ): AdmissionResult {
    const { pod, spec, sa } = of;
    if (this.#mount && shouldAutomount(sa, pod)) this.#mountToken(pod);
    if ((spec.imagePullSecrets ?? []).length === 0 && (sa.imagePullSecrets ?? []).length > 0) {
      spec.imagePullSecrets = (sa.imagePullSecrets ?? []).map((s) => ({ name: s.name ?? '' }));
    }
    return this.validate(ctx, a);
  }

  validate(ctx: RequestContext, a: Attributes): AdmissionResult {
    const pod = podOf(a);
    if (pod === undefined) return undefined;
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers')
      return this.#limitEphemeralContainerSecrets(ctx, a, pod);
    if (a.operation !== 'CREATE') return undefined;
    if (isMirrorPod(pod)) {
      if ((pod.spec?.serviceAccountName ?? '') !== '')
        throw newAdmissionForbidden(a, 'a mirror pod may not reference service accounts');
      if (referencesSecrets(pod)) throw newAdmissionForbidden(a, 'a mirror pod may not reference secrets');
      if (usesTokenProjection(pod))
        throw newAdmissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
      return undefined;
    }
    const name = pod.spec?.serviceAccountName ?? '';
    if (name === '') {
      throw newAdmissionForbidden(
        a,
        `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`,
      );
    }
    return withLookup(
      this.#lookupNow(ctx, a, name),
      () => this.#lookup(ctx, a, name),
      (sa) => {
        refuseUnlistedSecret(a, pod, sa);
      },
    );
  }

  // limitEphemeralContainerSecretReferences: the pod's account must exist; when it enforces mountable
  // secrets, ephemeral containers may use only the secrets it lists.
  async #limitEphemeralContainerSecrets(ctx: RequestContext, a: Attributes, pod: Pod): Promise<void> {
    const name = pod.spec?.serviceAccountName ?? '';
    if (name === '') {
      throw newAdmissionForbidden(
        a,
        `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`,
      );
    }
    const sa = await this.#lookup(ctx, a, name);
    if (!enforcesMountableSecrets(sa)) return;
    const allowed = new Set((sa.secrets ?? []).map((s) => s.name ?? ''));
    const refused = unlistedContainerSecret(pod.spec?.ephemeralContainers ?? [], {
      label: 'ephemeral container',
      allowed,
      sa,
    });
    if (refused !== undefined) throw newAdmissionForbidden(a, refused);
  }

  // getServiceAccount: the lister's, then a live read; `default` is read up to ten times, as the
  // service accounts controller may not have made it yet in a namespace just created. A pod's
  // create asks three times (mutating, then checking, then the validating phase): within one
  // request, the account found is found again.
  async #lookup(ctx: RequestContext, a: Attributes, name: string): Promise<ServiceAccount> {
    const found = this.#found.get(ctx);
    if (found?.metadata?.name === name) return found;
    const sa = await this.#read(ctx, a, name);
    this.#found.set(ctx, sa);
    return sa;
  }

  /** #lookup's answer at once: found before in this request, or held by the watch cache. */
  #lookupNow(ctx: RequestContext, a: Attributes, name: string): ServiceAccount | undefined {
    const found = this.#found.get(ctx);
    if (found?.metadata?.name === name) return found;
    const read = internalContext({ namespace: a.namespace, parent: ctx });
    const sa = listerGetNow<ServiceAccount>(this.#serviceAccounts, read, name);
    if (sa !== undefined) this.#found.set(ctx, sa);
    return sa;
  }

  async #read(ctx: RequestContext, a: Attributes, name: string): Promise<ServiceAccount> {
    const attempts = name === defaultServiceAccountName ? 10 : 1;
    const interval = this.#retryIntervalMs ?? 100 + Math.floor(Math.random() * 100);
    const read = internalContext({ namespace: a.namespace, parent: ctx });
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(interval, undefined, { signal: ctx.signal });
      try {
        return await listerGet<ServiceAccount>(this.#serviceAccounts, read, name);
      } catch (err) {
        if (!isStatusError(err) || err.reason !== 'NotFound') throw lookupError(a, name, err);
      }
    }
    throw lookupError(a, name, newNotFound({ group: '', resource: 'serviceaccount' }, name));
  }

  // mountServiceAccountToken: reuse a kube-api-access-* volume the pod already has, mount it in every
  // container and init container not already using the path, and add the volume if one was mounted.
  #mountToken(pod: Pod): void {
    const spec = pod.spec;
    if (spec === undefined) return;
    const existing = (spec.volumes ?? []).find((v) => nameOf(v).startsWith(`${serviceAccountVolumeName}-`));
    const volumeName = existing?.name ?? this.#generateName(`${serviceAccountVolumeName}-`);
    let mounted = false;
    for (const c of [...(spec.initContainers ?? []), ...listOf(spec.containers)]) {
      if ((c.volumeMounts ?? []).some((m) => m.mountPath === defaultAPITokenMountPath)) continue;
      (c.volumeMounts ??= []).push({ name: volumeName, readOnly: true, mountPath: defaultAPITokenMountPath });
      mounted = true;
    }
    if (existing === undefined && mounted) (spec.volumes ??= []).push(tokenVolume(volumeName));
  }
}

function lookupError(a: Attributes, name: string, cause: unknown): Error {
  const text = cause instanceof Error ? cause.message : String(cause);
  return newAdmissionForbidden(a, `error looking up service account ${a.namespace}/${name}: ${text}`);
}
