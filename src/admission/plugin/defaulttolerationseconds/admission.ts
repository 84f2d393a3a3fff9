// DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go), enabled by
// default in kube-apiserver: a pod that does not already tolerate the node.kubernetes.io/not-ready or
// node.kubernetes.io/unreachable NoExecute taint gets a toleration for it for 300 seconds, on create
// and on update. A toleration with no key or no effect counts as tolerating it.
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { handlesOnly, type AdmissionResult, type MutationInterface } from '../../interfaces.js';

export const defaultTolerationSecondsPluginName = 'DefaultTolerationSeconds';

/** v1.TaintNodeNotReady and v1.TaintNodeUnreachable. */
export const taintNodeNotReady = 'node.kubernetes.io/not-ready';
export const taintNodeUnreachable = 'node.kubernetes.io/unreachable';
/** kube's --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds default. */
export const defaultTolerationSeconds = 300;

export interface DefaultTolerationSecondsOptions {
  readonly notReadySeconds?: number;
  readonly unreachableSeconds?: number;
}

function tolerates(tolerations: readonly Toleration[], key: string): boolean {
  return tolerations.some(
    (t) => ((t.key ?? '') === key || (t.key ?? '') === '') && ['NoExecute', ''].includes(t.effect ?? ''),
  );
}

export class DefaultTolerationSeconds implements MutationInterface {
  readonly #notReadySeconds: number;
  readonly #unreachableSeconds: number;
  readonly handles = handlesOnly('CREATE', 'UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['pods']);

  constructor(opts: DefaultTolerationSecondsOptions = {}) {
    this.#notReadySeconds = opts.notReadySeconds ?? defaultTolerationSeconds;
    this.#unreachableSeconds = opts.unreachableSeconds ?? defaultTolerationSeconds;
  }

  admit(_ctx: RequestContext, a: Attributes): AdmissionResult {
    if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '') return undefined;
    const spec = (a.object as Pod | null)?.spec;
    if (spec === undefined) return undefined;
    const existing = spec.tolerations ?? [];
    const added: Toleration[] = [];
    if (!tolerates(existing, taintNodeNotReady)) added.push(exists(taintNodeNotReady, this.#notReadySeconds));
    if (!tolerates(existing, taintNodeUnreachable))
      added.push(exists(taintNodeUnreachable, this.#unreachableSeconds));
    if (added.length > 0) spec.tolerations = [...existing, ...added];
    return undefined;
  }
}

const exists = (key: string, seconds: number): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});
