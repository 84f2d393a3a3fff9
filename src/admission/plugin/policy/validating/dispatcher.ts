// One request against the policies that have bindings (k8s.io/apiserver/pkg/admission/plugin/policy/
// validating/dispatcher.go): a policy whose matchConstraints take the request is evaluated for each
// binding whose matchResources take it, once per param; each failed validation goes to the
// binding's validationActions (Deny collects a denial, Warn a Warning header, Audit an audit
// annotation), and the first denial is the request's error with the validation's reason and code.
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../../../api/admissionregistration/v1/policy.js';
import type { Namespace } from '../../../../api/core/v1/namespace.js';
import { statusError, type StatusError, type StatusReason } from '../../../../machinery/errors/index.js';
import type { CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import type { RequestContext } from '../../../../registry/rest/context.js';
import type { Authorizer } from '../../../../registry/rest/authorizer.js';
import type { Attributes } from '../../../attributes.js';
import { newAdmissionForbidden } from '../../../errors.js';
import { collectParams, type ParamStore } from '../generic/params.js';
import { matchedResource, matchesResources, type MatchEnvironment } from '../matching/matcher.js';
import { versionedAttributes } from './versioned-attributes.js';
import { activationOf, admissionRequest, namespaceObject } from './activation.js';
import type { CompiledPolicy } from './compiled-policy.js';
import {
  validate,
  type Activation,
  type FailurePolicy,
  type PolicyDecision,
  type ValidateResult,
} from './validator.js';

export interface PolicyHook {
  readonly policy: ValidatingAdmissionPolicy;
  readonly compiled: CompiledPolicy;
  readonly bindings: readonly ValidatingAdmissionPolicyBinding[];
  readonly paramStore: ParamStore | undefined;
  /** Why the policy cannot be used (an unknown paramKind). */
  readonly configurationError?: string;
}

export interface DispatchEnvironment extends MatchEnvironment {
  namespace(name: string): Promise<Namespace | undefined>;
  /** Audit annotations of the request (kube's attributes.AddAnnotation). */
  addAuditAnnotation(key: string, value: string): void;
  /** Answers the expressions' `authorizer` checks; without it the variable is not bound. */
  readonly authorizer?: Authorizer | undefined;
}

interface Denial {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  readonly reason?: string;
}

const validationFailureKey = 'validation.policy.admission.k8s.io/validation_failure';
const maxAuditAnnotationValueLength = 10 * 1024;

const codeOf: Readonly<Record<string, number>> = {
  Forbidden: 403,
  Unauthorized: 401,
  RequestEntityTooLarge: 413,
  Invalid: 422,
};

const failurePolicyOf = (p: ValidatingAdmissionPolicy): FailurePolicy =>
  p.spec?.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail';

/** The error of the first denial, as admission.NewForbidden with the reason and code replaced. */
function denialError(a: Attributes, d: Denial): StatusError {
  const message =
    d.binding === undefined
      ? `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`
      : `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
  const forbidden = newAdmissionForbidden(a, new Error(message));
  const reason = (d.reason ?? '') === '' ? 'Invalid' : (d.reason as string);
  return statusError({
    reason: reason as StatusReason,
    code: codeOf[reason] ?? 422,
    message: forbidden.status.message ?? message,
    details: { ...forbidden.status.details, causes: [{ message }] },
  });
}

/** The request's namespace object, none for cluster-scoped requests and namespaces themselves. */
async function namespaceFor(a: Attributes, env: DispatchEnvironment): Promise<Namespace | undefined> {
  if (a.kind.group === '' && a.kind.version === 'v1' && a.kind.kind === 'Namespace') return undefined;
  return a.namespace === '' ? undefined : env.namespace(a.namespace);
}

class Dispatch {
  readonly denials: Denial[] = [];
  readonly #ctx: RequestContext;
  readonly #a: Attributes;
  readonly #env: DispatchEnvironment;
  readonly #lib: CelLibrary;
  /** The AdmissionRequest by the resource the policy matched (the request's or an equivalent). */
  readonly #requests = new Map<string, Record<string, unknown>>();

  constructor(ctx: RequestContext, a: Attributes, opts: { env: DispatchEnvironment; lib: CelLibrary }) {
    this.#ctx = ctx;
    this.#a = a;
    this.#env = opts.env;
    this.#lib = opts.lib;
  }

  configError(hook: PolicyHook, err: unknown, binding?: ValidatingAdmissionPolicyBinding): void {
    const failurePolicy = hook.policy.spec?.failurePolicy ?? 'Fail';
    if (failurePolicy === 'Ignore') return;
    const text = err instanceof Error ? err.message : String(err);
    const message =
      failurePolicy === 'Fail'
        ? `failed to configure ${binding === undefined ? 'policy' : 'binding'}: ${text}`
        : `unrecognized failure policy: '${failurePolicy}'`;
    this.denials.push({
      policy: hook.policy.metadata?.name ?? '',
      ...(binding === undefined ? {} : { binding: binding.metadata?.name ?? '' }),
      message,
    });
  }

  async hook(hook: PolicyHook): Promise<void> {
    const a = this.#a;
    let versioned: Attributes;
    try {
      const resource = await matchedResource(hook.policy.spec?.matchConstraints, a, this.#env);
      if (resource === undefined) return;
      // Evaluated on the objects at the version the policy matched (kube's VersionedAttribute).
      versioned = await versionedAttributes(this.#ctx, a, resource);
    } catch (err) {
      this.configError(hook, err);
      return;
    }
    if (hook.configurationError !== undefined) {
      this.configError(hook, new Error(hook.configurationError));
      return;
    }
    const annotations = new Map<string, string[]>();
    for (const binding of hook.bindings) await this.#binding(hook, { binding, versioned }, annotations);
    const policyName = hook.policy.metadata?.name ?? '';
    for (const [key, values] of annotations)
      this.#env.addAuditAnnotation(`${policyName}/${key}`, values.join(', '));
  }

  async #binding(
    hook: PolicyHook,
    b: { binding: ValidatingAdmissionPolicyBinding; versioned: Attributes },
    annotations: Map<string, string[]>,
  ): Promise<void> {
    const a = this.#a;
    const { binding, versioned } = b;
    let params;
    try {
      if (!(await matchesResources(binding.spec?.matchResources, a, this.#env))) return;
      params = await collectParams(this.#ctx, {
        paramKind: hook.policy.spec?.paramKind,
        paramRef: binding.spec?.paramRef,
        store: hook.paramStore,
        namespace: a.namespace,
      });
    } catch (err) {
      this.configError(hook, err, binding);
      return;
    }
    const ns = namespaceObject(await namespaceFor(a, this.#env));
    const request = this.#requestFor(versioned);
    for (const param of params) {
      const activation = activationOf({ attributes: versioned, param, namespace: ns, request });
      const result = await this.#validate(hook, activation);
      result.decisions.forEach((d, i) => {
        this.#decision(hook, binding, { decision: d, index: i });
      });
      for (const r of result.auditAnnotations) {
        if (r.action === 'publish') {
          const value = (r.value ?? '').slice(0, maxAuditAnnotationValueLength);
          const values = annotations.get(r.key) ?? [];
          if (!values.includes(value)) annotations.set(r.key, [...values, value]);
        } else if (r.action === 'error') {
          this.denials.push({
            policy: hook.policy.metadata?.name ?? '',
            binding: binding.metadata?.name ?? '',
            message: r.error ?? '',
          });
        }
      }
    }
  }

  /** validate(), with the `authorizer` variable bound when there is an authorizer to answer it. */
  #validate(hook: PolicyHook, activation: Activation): Promise<ValidateResult> | ValidateResult {
    const lib = this.#lib;
    const failurePolicy = failurePolicyOf(hook.policy);
    const authorizer = this.#env.authorizer;
    if (authorizer === undefined) return validate(lib, hook.compiled, { activation, failurePolicy });
    const a = this.#a;
    const requestResource = {
      group: a.resource.group,
      resource: a.resource.resource,
      subresource: a.subresource,
      namespace: a.namespace,
      name: a.name,
    };
    return lib.authz.withSession({ authorizer, user: a.userInfo, requestResource }, (session) =>
      session.evaluate(() =>
        validate(lib, hook.compiled, {
          activation: { ...activation, authorizer: session.variable },
          failurePolicy,
        }),
      ),
    );
  }

  #requestFor(versioned: Attributes): Record<string, unknown> {
    const r = versioned.resource;
    const key = `${r.group}/${r.version}/${r.resource}`;
    let request = this.#requests.get(key);
    if (request === undefined) {
      request = admissionRequest(versioned, this.#a);
      this.#requests.set(key, request);
    }
    return request;
  }

  #decision(
    hook: PolicyHook,
    binding: ValidatingAdmissionPolicyBinding,
    d: { decision: PolicyDecision; index: number },
  ): void {
    const { decision, index } = d;
    if (decision.action !== 'deny') return;
    const policy = hook.policy.metadata?.name ?? '';
    const bindingName = binding.metadata?.name ?? '';
    const actions = binding.spec?.validationActions ?? [];
    for (const action of actions) {
      if (action === 'Deny')
        this.denials.push({
          policy,
          binding: bindingName,
          message: decision.message,
          ...(decision.reason === undefined ? {} : { reason: decision.reason }),
        });
      else if (action === 'Warn')
        this.#ctx.addWarning(
          `Validation failed for ValidatingAdmissionPolicy '${policy}' with binding '${bindingName}': ${decision.message}`,
        );
      else if (action === 'Audit')
        this.#env.addAuditAnnotation(
          validationFailureKey,
          JSON.stringify([
            {
              message: decision.message,
              policy: binding.spec?.policyName ?? '',
              binding: bindingName,
              expressionIndex: index,
              validationActions: actions,
            },
          ]),
        );
    }
  }
}

/** Dispatch: throws the first denial. */
export async function dispatch(
  ctx: RequestContext,
  a: Attributes,
  opts: { hooks: readonly PolicyHook[]; env: DispatchEnvironment; lib: CelLibrary },
): Promise<void> {
  const d = new Dispatch(ctx, a, opts);
  for (const hook of opts.hooks) await d.hook(hook);
  const first = d.denials[0];
  if (first !== undefined) throw denialError(a, first);
}
