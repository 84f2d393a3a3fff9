// The ValidatingAdmissionPolicy admission plugin (k8s.io/apiserver/pkg/admission/plugin/policy/
// validating/plugin.go over policy/generic): policies and bindings kept current from list and
// watch, each policy compiled once per generation, every request dispatched to the policies that
// have bindings. With no policy or no binding a request returns at once, before the CEL library
// is even loaded. Requests on the admission configuration kinds themselves are exempt, as in kube.
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../../../api/admissionregistration/v1/policy.js';
import type { Namespace } from '../../../../api/core/v1/namespace.js';
import { isStatusError } from '../../../../machinery/errors/index.js';
import type { GroupVersionResource } from '../../../../machinery/schema/group-resource.js';
import { loadCel, type CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import type { Getter, Lister, Updater, Watcher } from '../../../../registry/rest/capabilities.js';
import type { Authorizer } from '../../../../registry/rest/authorizer.js';
import { internalContext, type RequestContext } from '../../../../registry/rest/context.js';
import type { Attributes } from '../../../attributes.js';
import { handlesOnly, type AdmissionResult, type ValidationInterface } from '../../../interfaces.js';
import { listerGet } from '../../../../registry/rest/lister-read.js';
import { ObjectSource } from '../generic/object-source.js';
import { paramGVKString, type ParamStoreLookup } from '../generic/params.js';
import { compilePolicy, type CompiledPolicy } from './compiled-policy.js';
import { dispatch, type PolicyHook } from './dispatcher.js';
import { PolicyStatusController } from './status-controller.js';
import type { TypeResolver } from './type-checking.js';

export const validatingAdmissionPolicyPluginName = 'ValidatingAdmissionPolicy';

const exemptResources = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

export interface ValidatingAdmissionPolicyOptions {
  readonly policies: Lister & Watcher;
  readonly bindings: Lister & Watcher;
  readonly namespaces?: Getter;
  readonly params: ParamStoreLookup;
  readonly equivalentResources?: (gvr: GroupVersionResource) => readonly GroupVersionResource[];
  /** validatingadmissionpolicies/status, for the type checking status; none leaves status alone. */
  readonly policyStatus?: Updater;
  readonly types?: TypeResolver;
  /** Receives the audit annotations; by default they go to the request's audit event. */
  readonly onAuditAnnotation?: (ctx: RequestContext, key: string, value: string) => void;
  /** Answers the expressions' `authorizer` checks (the server's authorizer). */
  readonly authorizer?: Authorizer | undefined;
}

export class ValidatingAdmissionPolicyPlugin implements ValidationInterface {
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE', 'CONNECT');
  readonly #opts: ValidatingAdmissionPolicyOptions;
  readonly #policies: ObjectSource<ValidatingAdmissionPolicy>;
  readonly #bindings: ObjectSource<ValidatingAdmissionPolicyBinding>;
  readonly #compiled = new Map<string, CompiledPolicy>();
  readonly #status: PolicyStatusController | undefined;

  constructor(opts: ValidatingAdmissionPolicyOptions) {
    this.#opts = opts;
    this.#status =
      opts.policyStatus === undefined || opts.types === undefined
        ? undefined
        : new PolicyStatusController({ status: opts.policyStatus, types: opts.types });
    this.#policies = new ObjectSource({
      source: opts.policies,
      onChange: (_type, obj) => {
        if (obj === undefined) for (const p of this.#policies.values()) this.#status?.enqueue(p);
        else this.#status?.enqueue(obj);
      },
    });
    this.#bindings = new ObjectSource({ source: opts.bindings });
  }

  /** The status controller's queue drained (tests). */
  async statusIdle(): Promise<void> {
    await this.#status?.idle();
  }

  validate(ctx: RequestContext, a: Attributes): AdmissionResult {
    if (this.#policies.size === 0 || this.#bindings.size === 0) return undefined;
    if (a.resource.group === 'admissionregistration.k8s.io' && exemptResources.has(a.resource.resource))
      return undefined;
    const hooks = this.#hooksWithoutPrograms();
    if (hooks.length === 0) return undefined;
    return this.#validateWith(ctx, a, hooks);
  }

  async #validateWith(
    ctx: RequestContext,
    a: Attributes,
    hooks: Omit<PolicyHook, 'compiled'>[],
  ): Promise<void> {
    const lib = await loadCel();
    await dispatch(ctx, a, {
      hooks: hooks.map((h) => ({ ...h, compiled: this.#compiledFor(lib, h.policy) })),
      lib,
      env: {
        namespaceLabels: async (name) => {
          const ns = await this.#namespace(ctx, name);
          return ns === undefined ? undefined : (ns.metadata?.labels ?? {});
        },
        namespace: (name) => this.#namespace(ctx, name),
        equivalentResources: this.#opts.equivalentResources ?? (() => []),
        authorizer: this.#opts.authorizer,
        addAuditAnnotation: (key, value) => {
          if (this.#opts.onAuditAnnotation === undefined) ctx.addAuditAnnotation?.(key, value);
          else this.#opts.onAuditAnnotation(ctx, key, value);
        },
      },
    });
  }

  /** The policies with bindings, by name, each with its bindings by name. */
  #hooksWithoutPrograms(): Omit<PolicyHook, 'compiled'>[] {
    const byPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>();
    for (const b of this.#bindings.values()) {
      const name = b.spec?.policyName ?? '';
      const list = byPolicy.get(name) ?? [];
      list.push(b);
      byPolicy.set(name, list);
    }
    const hooks: Omit<PolicyHook, 'compiled'>[] = [];
    for (const [name, bindings] of [...byPolicy].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      const policy = this.#policies.get(name);
      if (policy === undefined) continue;
      const paramKind = policy.spec?.paramKind;
      const paramStore = paramKind === undefined ? undefined : this.#opts.params(paramKind);
      hooks.push({
        policy,
        bindings: bindings.sort((x, y) => ((x.metadata?.name ?? '') < (y.metadata?.name ?? '') ? -1 : 1)),
        paramStore,
        ...(paramKind !== undefined && paramStore === undefined
          ? {
              configurationError: `failed to find resource referenced by paramKind: '${paramGVKString(paramKind)}'`,
            }
          : {}),
      });
    }
    return hooks;
  }

  /** The policy's programs, compiled again only when its uid or generation changes. */
  #compiledFor(lib: CelLibrary, policy: ValidatingAdmissionPolicy): CompiledPolicy {
    const name = policy.metadata?.name ?? '';
    const cached = this.#compiled.get(name);
    if (
      cached !== undefined &&
      cached.uid === (policy.metadata?.uid ?? '') &&
      cached.generation === (policy.metadata?.generation ?? 0)
    )
      return cached;
    const compiled = compilePolicy(lib, policy);
    this.#compiled.set(name, compiled);
    for (const known of this.#compiled.keys())
      if (this.#policies.get(known) === undefined) this.#compiled.delete(known);
    return compiled;
  }

  async #namespace(ctx: RequestContext, name: string): Promise<Namespace | undefined> {
    const getter = this.#opts.namespaces;
    if (getter === undefined) return undefined;
    try {
      return await listerGet<Namespace>(getter, internalContext({ parent: ctx }), name);
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') return undefined;
      throw err;
    }
  }

  close(): void {
    void this.#policies.close();
    void this.#bindings.close();
    void this.#status?.close();
  }
}
