// The admission ports (k8s.io/apiserver/pkg/admission/interfaces.go): a plugin says which
// operations it handles and mutates (admit), validates, or both. Errors are thrown StatusErrors.
import type { RequestContext } from '../registry/rest/context.js';
import type { Attributes, Operation } from './attributes.js';

/** kube's admission.Interface. */
export interface AdmissionInterface {
  handles(operation: Operation): boolean;
  /**
   * The resources the plugin may act on (`pods`, `ingresses.networking.k8s.io`); any when absent.
   * kube's plugins check the resource inside Admit; saying it here lets a route's chain leave the
   * plugin out, so a ConfigMap create does not walk the pod plugins.
   */
  readonly resources?: ReadonlySet<string>;
}

/**
 * What admit and validate return: a promise when the step had to wait (a webhook, a read the
 * informers could not answer), else nothing: most steps of most requests finish at once, and the
 * chain runs them without a promise or a turn of the microtask queue each. Errors are thrown,
 * from the call itself or as the promise's rejection.
 */
export type AdmissionResult = Promise<void> | undefined;

/**
 * A plugin step on a value it looks up: `use` at once with `now` when the lookup had it at once
 * (an informer, the watch cache), else with what `later` reads; a promise only in that case or
 * when `use` itself returns one.
 */
export function withLookup<T>(
  now: T | undefined,
  later: () => Promise<T>,
  use: (value: T) => unknown,
): AdmissionResult {
  // What `use` returns besides a promise (nothing, as a rule) is of no interest to the chain.
  if (now === undefined) return later().then(use) as Promise<void>;
  const pending = use(now);
  return pending instanceof Promise ? (pending as Promise<void>) : undefined;
}

/** May change `attributes.object`; runs before validation and before the object is stored. */
export interface MutationInterface extends AdmissionInterface {
  admit(ctx: RequestContext, attributes: Attributes): AdmissionResult;
}

/** Must not change anything; runs last, inside the storage's write. */
export interface ValidationInterface extends AdmissionInterface {
  validate(ctx: RequestContext, attributes: Attributes): AdmissionResult;
}

export const isMutationInterface = (i: AdmissionInterface): i is MutationInterface =>
  typeof (i as Partial<MutationInterface>).admit === 'function';

export const isValidationInterface = (i: AdmissionInterface): i is ValidationInterface =>
  typeof (i as Partial<ValidationInterface>).validate === 'function';

/** admission.Handler: answers handles() for a fixed set of operations. */
export function handlesOnly(...ops: readonly Operation[]): (operation: Operation) => boolean {
  const set: ReadonlySet<Operation> = new Set(ops);
  return (operation) => set.has(operation);
}
