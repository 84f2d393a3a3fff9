// PodSecurity (k8s.io/pod-security-admission, plugin/pkg/admission/security/podsecurity), enabled by
// default in kube-apiserver, in its default configuration (no AdmissionConfiguration, no exemptions):
// the namespace labels pod-security.kubernetes.io/{enforce,audit,warn} choose a level per mode
// (privileged when unset). enforce refuses pods (create, significant update, ephemeralcontainers);
// warn adds a Warning to pods and to the pod templates of workload resources; audit records a
// violation in the request's audit event (pod-security.kubernetes.io/audit-violations, beside
// enforce-policy for pods). Every label version is evaluated as `latest`.
// Namespace labels are validated, and a stricter enforce level warns of existing pods it would refuse.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { KubeObject } from '../../../api/meta.js';
import { newInternalError, newInvalid } from '../../../machinery/errors/index.js';
import type { Getter, Lister } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, type ValidationInterface, withLookup } from '../../interfaces.js';
import {
  evaluatePod,
  levels,
  levelVersionText,
  policyFromLabels,
  type LevelVersion,
  type Policy,
} from './policy.js';
import type { PodMetaView, PodSpecView } from './shape.js';
import { isPodController, podControllerResources, podTemplateOf } from './templates.js';
import { listerGet, listerGetNow } from '../../../registry/rest/lister-read.js';

export const podSecurityPluginName = 'PodSecurity';

export interface PodSecurityOptions {
  readonly namespaces: Getter;
  /** The pods storage, to warn of existing pods when a namespace's enforce level tightens. */
  readonly pods?: Lister;
}

const ignoredPodSubresources: ReadonlySet<string> = new Set([
  'exec',
  'attach',
  'binding',
  'eviction',
  'log',
  'portforward',
  'proxy',
  'status',
]);

/** The fields PodSecurity re-checks on update: containers added or removed, images, ephemeral containers. */
export function isSignificantPodUpdate(pod: PodSpecView, old: PodSpecView): boolean {
  const changed = (a: PodSpecView['containers'], b: PodSpecView['containers']): boolean =>
    (a ?? []).length !== (b ?? []).length || (a ?? []).some((c, i) => c.image !== (b ?? [])[i]?.image);
  if (changed(pod.containers, old.containers) || changed(pod.initContainers, old.initContainers)) return true;
  return (pod.ephemeralContainers ?? []).some((c) => {
    const before = (old.ephemeralContainers ?? []).find((o) => o.name === c.name);
    return before === undefined || before.image !== c.image;
  });
}

const levelIndex = (lv: LevelVersion): number => levels.indexOf(lv.level);

interface PodLike {
  readonly metadata?: PodMetaView;
  readonly spec?: PodSpecView;
}

/** podsecurityadmissionapi.AuditAnnotationPrefix. */
const auditAnnotationPrefix = 'pod-security.kubernetes.io/';
export class PodSecurityAdmission implements ValidationInterface {
  readonly #namespaces: Getter;
  readonly #pods: Lister | undefined;
  /**
   * The policy of each namespace object the lister gave: it gives the same frozen object until the
   * namespace changes, so its labels are read once, not at every pod create.
   */
  readonly #policies = new WeakMap<Namespace, Policy>();
  readonly handles = handlesOnly('CREATE', 'UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['namespaces', 'pods', ...podControllerResources]);

  constructor(opts: PodSecurityOptions) {
    this.#namespaces = opts.namespaces;
    this.#pods = opts.pods;
  }

  validate(ctx: RequestContext, a: Attributes): AdmissionResult {
    if (a.object === null) return undefined;
    const { group, resource } = a.resource;
    if (group === '' && resource === 'namespaces') return this.#validateNamespace(ctx, a, a.object);
    if (group === '' && resource === 'pods') return this.#validatePod(ctx, a, a.object);
    if (a.subresource !== '' || !isPodController(group, resource)) return undefined;
    const template = podTemplateOf(group, resource, a.object);
    if (template?.spec === undefined) return undefined;
    return this.#withPolicy(ctx, a, (policy) => {
      // FullyAuditAndWarnPrivileged: nothing to evaluate, nothing recorded.
      if (policy.audit.level === 'privileged' && policy.warn.level === 'privileged') return;
      this.#audit(ctx, policy.audit, template);
      this.#warn(ctx, policy.warn, template);
    });
  }

  /** `use` with the namespace's policy: at once when the watch cache holds the namespace. */
  #withPolicy(ctx: RequestContext, a: Attributes, use: (policy: Policy) => void): AdmissionResult {
    const ns = listerGetNow<Namespace>(this.#namespaces, ctx, a.namespace);
    return withLookup(ns === undefined ? undefined : this.#policyIn(ns), () => this.#policyOf(ctx, a), use);
  }

  async #policyOf(ctx: RequestContext, a: Attributes): Promise<Policy> {
    let ns: Namespace;
    try {
      ns = await listerGet<Namespace>(this.#namespaces, ctx, a.namespace);
    } catch {
      throw newInternalError(new Error(`failed to lookup namespace ${JSON.stringify(a.namespace)}`));
    }
    return this.#policyIn(ns);
  }

  /** The policy of the namespace's labels, worked out once per decoded namespace. */
  #policyIn(ns: Namespace): Policy {
    let policy = this.#policies.get(ns);
    if (policy === undefined) {
      policy = policyFromLabels(ns.metadata?.labels).policy;
      this.#policies.set(ns, policy);
    }
    return policy;
  }

  #validatePod(ctx: RequestContext, a: Attributes, obj: KubeObject): AdmissionResult {
    if (ignoredPodSubresources.has(a.subresource)) return undefined;
    const pod = obj as PodLike;
    if (pod.spec === undefined) return undefined;
    if (a.operation === 'UPDATE' && a.oldObject !== null) {
      const old = (a.oldObject as PodLike).spec ?? {};
      if (!isSignificantPodUpdate(pod.spec, old)) return undefined;
    }
    return this.#withPolicy(ctx, a, (policy) => {
      this.#enforce(ctx, a, { pod, policy });
    });
  }

  #enforce(ctx: RequestContext, a: Attributes, of: { readonly pod: PodLike; readonly policy: Policy }): void {
    const { pod, policy } = of;
    // FullyPrivileged: nothing to evaluate, nothing recorded.
    if (Object.values(policy).every((lv) => lv.level === 'privileged')) return;
    ctx.addAuditAnnotation?.(`${auditAnnotationPrefix}enforce-policy`, levelVersionText(policy.enforce));
    const result = evaluatePod(policy.enforce.level, pod.metadata ?? {}, pod.spec ?? {});
    // Recorded whether or not enforce refuses the pod.
    this.#audit(ctx, policy.audit, pod);
    if (!result.allowed)
      throw newAdmissionForbidden(
        a,
        `violates PodSecurity ${JSON.stringify(levelVersionText(policy.enforce))}: ${result.detail}`,
      );
    this.#warn(ctx, policy.warn, pod);
  }

  /** The audit mode: a violation goes into the request's audit event, not to the client. */
  #audit(ctx: RequestContext, audit: LevelVersion, pod: PodLike): void {
    if (pod.spec === undefined) return;
    const result = evaluatePod(audit.level, pod.metadata ?? {}, pod.spec);
    if (!result.allowed)
      ctx.addAuditAnnotation?.(
        `${auditAnnotationPrefix}audit-violations`,
        `would violate PodSecurity ${JSON.stringify(levelVersionText(audit))}: ${result.detail}`,
      );
  }

  #warn(ctx: RequestContext, warn: LevelVersion, pod: PodLike): void {
    if (pod.spec === undefined) return;
    const result = evaluatePod(warn.level, pod.metadata ?? {}, pod.spec);
    if (!result.allowed)
      ctx.addWarning(`would violate PodSecurity ${JSON.stringify(levelVersionText(warn))}: ${result.detail}`);
  }

  async #validateNamespace(ctx: RequestContext, a: Attributes, obj: KubeObject): Promise<void> {
    if (a.subresource !== '') return;
    const fresh = policyFromLabels(obj.metadata?.labels);
    const kind = { group: '', kind: 'Namespace' };
    if (a.operation === 'CREATE') {
      if (fresh.errors.length > 0) throw newInvalid(kind, a.name, fresh.errors);
      return;
    }
    const old = policyFromLabels(a.oldObject?.metadata?.labels);
    const sameErrors = JSON.stringify(fresh.errors) === JSON.stringify(old.errors);
    if (fresh.errors.length > 0 && (old.errors.length === 0 || !sameErrors))
      throw newInvalid(kind, a.name, fresh.errors);
    const next = fresh.policy.enforce;
    const before = old.policy.enforce;
    if (next.level === before.level && next.version === before.version) return;
    if (next.level === 'privileged') return;
    if (next.version === before.version && levelIndex(next) <= levelIndex(before)) return;
    for (const w of await this.#existingPodWarnings(ctx, a.name, next)) ctx.addWarning(w);
  }

  // EvaluatePodsInNamespace: one warning per distinct violation, naming the first pod that has it.
  async #existingPodWarnings(
    ctx: RequestContext,
    namespace: string,
    enforce: LevelVersion,
  ): Promise<string[]> {
    if (this.#pods === undefined) return [];
    let items: PodLike[];
    try {
      const list = await this.#pods.list(internalContext({ namespace, parent: ctx }), {});
      items = list.items;
    } catch {
      return ['failed to list pods while checking new PodSecurity enforce level'];
    }
    const seen = new Map<string, { name: string; count: number }>();
    for (const pod of items) {
      if (pod.spec === undefined) continue;
      const r = evaluatePod(enforce.level, pod.metadata ?? {}, pod.spec);
      if (r.allowed) continue;
      const name = pod.metadata?.name ?? '';
      const c = seen.get(r.reason);
      if (c === undefined) seen.set(r.reason, { name, count: 1 });
      else seen.set(r.reason, { name: name < c.name ? name : c.name, count: c.count + 1 });
    }
    if (seen.size === 0) return [];
    const podWarnings = [...seen].map(([reason, c]) => {
      if (c.count === 1) return `${c.name}: ${reason}`;
      if (c.count === 2) return `${c.name} (and 1 other pod): ${reason}`;
      return `${c.name} (and ${String(c.count - 1)} other pods): ${reason}`;
    });
    return [
      `existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionText(enforce))}`,
      ...podWarnings.sort(),
    ];
  }
}
