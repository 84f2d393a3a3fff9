// The admission chain (k8s.io/apiserver/pkg/admission/chain.go): plugins in order, the first
// error ends the step. admit() runs the mutating plugins, validate() the validating ones.
import { groupResourceString, type GroupResource } from '../machinery/schema/group-resource.js';
import type { RequestContext } from '../registry/rest/context.js';
import type { Attributes, Operation } from './attributes.js';
import { isReinvocationRequester, ReinvocationContext, type ReinvocationRequester } from './reinvocation.js';
import {
  isMutationInterface,
  isValidationInterface,
  type AdmissionInterface,
  type AdmissionResult,
  type MutationInterface,
  type ValidationInterface,
} from './interfaces.js';

export interface NamedHandler {
  readonly name: string;
  readonly plugin: AdmissionInterface & { close?(): void };
}

/** One call of admit or validate on a chain. */
interface ChainRun {
  readonly phase: 'admit' | 'validate';
  readonly ctx: RequestContext;
  readonly attributes: Attributes;
}

export class AdmissionChain implements MutationInterface, ValidationInterface {
  readonly #handlers: readonly NamedHandler[];
  readonly #byResource = new Map<string, AdmissionChain>();
  #mutating: AdmissionChain | undefined;
  #validating: AdmissionChain | undefined;
  /** The plugins that may ask for a second run; usually none or MutatingAdmissionWebhook. */
  readonly #requesters: readonly ReinvocationRequester[];

  constructor(handlers: readonly NamedHandler[]) {
    this.#handlers = [...handlers];
    this.#requesters = this.#handlers.map((h) => h.plugin).filter(isReinvocationRequester);
  }

  /** The plugin names in order, for logs and flags. */
  get names(): readonly string[] {
    return this.#handlers.map((h) => h.name);
  }

  /** The mutating plugins alone (kube's handlers take the two kinds apart); made once per chain. */
  mutationChain(): AdmissionChain {
    this.#mutating ??= new AdmissionChain(this.#handlers.filter((h) => isMutationInterface(h.plugin)));
    return this.#mutating;
  }

  /** The validating plugins alone. */
  validationChain(): AdmissionChain {
    this.#validating ??= new AdmissionChain(this.#handlers.filter((h) => isValidationInterface(h.plugin)));
    return this.#validating;
  }

  /** The plugins that may act on `resource` (see AdmissionInterface.resources), kept per resource. */
  forResource(resource: GroupResource): AdmissionChain {
    const key = groupResourceString(resource);
    let chain = this.#byResource.get(key);
    if (chain === undefined) {
      chain = new AdmissionChain(this.#handlers.filter((h) => h.plugin.resources?.has(key) ?? true));
      this.#byResource.set(key, chain);
    }
    return chain;
  }

  handles(operation: Operation): boolean {
    return this.#handlers.some((h) => h.plugin.handles(operation));
  }

  /**
   * The mutating plugins in order; once more when a plugin asks (kube's reinvoker). The context
   * is made only when a plugin may ask for this call, so most calls make none. Plugins that finish
   * at once run one after the other without a promise; the first that returns one continues the
   * chain when it settles.
   */
  admit(ctx: RequestContext, attributes: Attributes): AdmissionResult {
    if (
      attributes.reinvocation !== undefined ||
      !this.#requesters.some((p) => p.mayRequestReinvocation(attributes))
    ) {
      return this.#admitFrom(0, ctx, attributes);
    }
    return this.#admitTwice(ctx, attributes);
  }

  async #admitTwice(ctx: RequestContext, attributes: Attributes): Promise<void> {
    const reinvocation = new ReinvocationContext();
    const withContext: Attributes = { ...attributes, reinvocation };
    await this.#admitFrom(0, ctx, withContext);
    if (!reinvocation.shouldReinvoke) return;
    reinvocation.isReinvoke = true;
    await this.#admitFrom(0, ctx, withContext);
  }

  #admitFrom(first: number, ctx: RequestContext, attributes: Attributes): AdmissionResult {
    return this.#runFrom({ phase: 'admit', ctx, attributes }, first);
  }

  validate(ctx: RequestContext, attributes: Attributes): AdmissionResult {
    return this.#runFrom({ phase: 'validate', ctx, attributes }, 0);
  }

  /** The plugins of the run's phase from the handler at `first` on, as admit and validate run them. */
  #runFrom(run: ChainRun, first: number): AdmissionResult {
    const { phase, ctx, attributes } = run;
    const handlers = this.#handlers;
    for (let i = first; i < handlers.length; i++) {
      const plugin = (handlers[i] as NamedHandler).plugin;
      if (!plugin.handles(attributes.operation)) continue;
      let pending: AdmissionResult;
      if (phase === 'admit') {
        if (!isMutationInterface(plugin)) continue;
        pending = plugin.admit(ctx, attributes);
      } else {
        if (!isValidationInterface(plugin)) continue;
        pending = plugin.validate(ctx, attributes);
      }
      if (pending !== undefined) return pending.then(() => this.#runFrom(run, i + 1));
    }
    return undefined;
  }

  /** Closes the plugins; the chains made from this one share them. */
  close(): void {
    for (const { plugin } of this.#handlers) plugin.close?.();
  }
}
