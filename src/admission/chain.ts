// The admission chain (k8s.io/apiserver/pkg/admission/chain.go): plugins in order, the first
// error ends the step. admit() runs the mutating plugins, validate() the validating ones.
import type { RequestContext } from '../registry/rest/context.js';
import type { Attributes, Operation } from './attributes.js';
import {
  isMutationInterface,
  isValidationInterface,
  type AdmissionInterface,
  type MutationInterface,
  type ValidationInterface,
} from './interfaces.js';

export interface NamedHandler {
  readonly name: string;
  readonly plugin: AdmissionInterface & { close?(): void };
}

export class AdmissionChain implements MutationInterface, ValidationInterface {
  readonly #handlers: readonly NamedHandler[];

  constructor(handlers: readonly NamedHandler[]) {
    this.#handlers = [...handlers];
  }

  /** The plugin names in order, for logs and flags. */
  get names(): readonly string[] {
    return this.#handlers.map((h) => h.name);
  }

  /** The mutating plugins alone (kube's handlers take the two kinds apart). */
  mutationChain(): AdmissionChain {
    return new AdmissionChain(this.#handlers.filter((h) => isMutationInterface(h.plugin)));
  }

  /** The validating plugins alone. */
  validationChain(): AdmissionChain {
    return new AdmissionChain(this.#handlers.filter((h) => isValidationInterface(h.plugin)));
  }

  handles(operation: Operation): boolean {
    return this.#handlers.some((h) => h.plugin.handles(operation));
  }

  async admit(ctx: RequestContext, attributes: Attributes): Promise<void> {
    for (const { plugin } of this.#handlers) {
      if (plugin.handles(attributes.operation) && isMutationInterface(plugin))
        await plugin.admit(ctx, attributes);
    }
  }

  async validate(ctx: RequestContext, attributes: Attributes): Promise<void> {
    for (const { plugin } of this.#handlers) {
      if (plugin.handles(attributes.operation) && isValidationInterface(plugin))
        await plugin.validate(ctx, attributes);
    }
  }

  close(): void {
    for (const { plugin } of this.#handlers) plugin.close?.();
  }
}
