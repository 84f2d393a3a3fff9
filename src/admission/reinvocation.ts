// kube's admission reinvocation (k8s.io/apiserver/pkg/admission/reinvocation.go and
// attributes.go's ReinvocationContext): when a mutating webhook changed the object, the whole
// mutating chain runs once more, so built-in plugins see what webhooks added (a container a webhook
// injects gets the service account token mounted) and IfNeeded webhooks see later changes.
import type { Attributes } from './attributes.js';

/** One admission call's reinvocation state, shared by the chain and the plugins that need it. */
export class ReinvocationContext {
  /** The chain is on its second run. */
  isReinvoke = false;
  /** A plugin asks for a second run. */
  shouldReinvoke = false;
  readonly #values = new Map<string, unknown>();

  /** A plugin's own state across the two runs, under its name. */
  value(key: string): unknown {
    return this.#values.get(key);
  }

  setValue(key: string, value: unknown): void {
    this.#values.set(key, value);
  }
}

/** A plugin that may ask the chain to run again (MutatingAdmissionWebhook). */
export interface ReinvocationRequester {
  /** Whether it may ask for this call: the chain makes a context only then. */
  mayRequestReinvocation(attributes: Attributes): boolean;
}

export const isReinvocationRequester = <T extends object>(p: T): p is T & ReinvocationRequester =>
  typeof (p as Partial<ReinvocationRequester>).mayRequestReinvocation === 'function';
