// PodNodeSelector (plugin/pkg/admission/podnodeselector), without its configuration file (no
// cluster default, no whitelists): a new pod's nodeSelector gets the labels its namespace's
// scheduler.alpha.kubernetes.io/node-selector annotation names, and a pod that asks for another
// value of one of them is refused.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { setMember } from '../../../machinery/json/set-member.js';
import { isStatusError, newForbidden, newInternalError } from '../../../machinery/errors/index.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { handlesOnly, type MutationInterface, type ValidationInterface } from '../../interfaces.js';
import { listerGet } from '../../../registry/rest/lister-read.js';

export const podNodeSelectorPluginName = 'PodNodeSelector';
export const namespaceNodeSelectorAnnotation = 'scheduler.alpha.kubernetes.io/node-selector';

/** labels.ConvertSelectorToLabelsMap: `k=v,k2==v2`; anything else is an error. */
export function selectorToLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const term = part.trim();
    if (term === '') continue;
    const at = term.indexOf('=');
    const key = term.slice(0, Math.max(at, 0)).trim();
    const value = term.slice(at + (term[at + 1] === '=' ? 2 : 1)).trim();
    // Only equality: `!=`, set operators and bare keys are not label maps.
    if (at <= 0 || key.endsWith('!') || value.includes('=')) throw new Error(`invalid selector: '${term}'`);
    setMember(out, key, value);
  }
  return out;
}

const conflicts = (a: Record<string, string>, b: Record<string, string>): boolean =>
  Object.entries(a).some(([k, v]) => Object.hasOwn(b, k) && b[k] !== v);

const shouldIgnore = (a: Attributes): boolean =>
  a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '' || a.object === null;

export class PodNodeSelector implements MutationInterface, ValidationInterface {
  readonly #namespaces: Getter;
  readonly handles = handlesOnly('CREATE');
  readonly resources: ReadonlySet<string> = new Set(['pods']);

  constructor(opts: { readonly namespaces: Getter }) {
    this.#namespaces = opts.namespaces;
  }

  async admit(ctx: RequestContext, a: Attributes): Promise<void> {
    if (shouldIgnore(a)) return;
    const pod = a.object as Pod;
    const selector = await this.#namespaceSelector(ctx, a.namespace);
    this.#check(a, pod, selector);
    if (Object.keys(selector).length === 0) return;
    (pod.spec ??= { containers: [] }).nodeSelector = { ...selector, ...pod.spec.nodeSelector };
  }

  async validate(ctx: RequestContext, a: Attributes): Promise<void> {
    if (shouldIgnore(a)) return;
    this.#check(a, a.object as Pod, await this.#namespaceSelector(ctx, a.namespace));
  }

  #check(a: Attributes, pod: Pod, selector: Record<string, string>): void {
    if (conflicts(selector, pod.spec?.nodeSelector ?? {}))
      throw newForbidden(
        { group: a.resource.group, resource: a.resource.resource },
        pod.metadata?.name ?? '',
        'pod node label selector conflicts with its namespace node label selector',
      );
  }

  async #namespaceSelector(ctx: RequestContext, name: string): Promise<Record<string, string>> {
    let ns: Namespace;
    try {
      ns = await listerGet<Namespace>(this.#namespaces, internalContext({ parent: ctx }), name);
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') throw err;
      throw newInternalError(err);
    }
    const text = ns.metadata?.annotations?.[namespaceNodeSelectorAnnotation];
    if (text === undefined) return {};
    try {
      return selectorToLabels(text);
    } catch (err) {
      throw newInternalError(err);
    }
  }
}
