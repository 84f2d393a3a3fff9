// TaintNodesByCondition (plugin/pkg/admission/nodetaint/admission.go), enabled by default in
// kube-apiserver: a node is created with the node.kubernetes.io/not-ready:NoSchedule taint, so that
// nothing is scheduled on it before the node lifecycle controller sees it ready and removes it.
import type { Node, Taint } from '../../../api/core/v1/node.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { handlesOnly, type AdmissionResult, type MutationInterface } from '../../interfaces.js';

export const taintNodesByConditionPluginName = 'TaintNodesByCondition';

/** v1.TaintNodeNotReady. */
export const notReadyTaintKey = 'node.kubernetes.io/not-ready';

export class TaintNodesByCondition implements MutationInterface {
  readonly handles = handlesOnly('CREATE');
  readonly resources: ReadonlySet<string> = new Set(['nodes']);

  admit(_ctx: RequestContext, a: Attributes): AdmissionResult {
    if (a.resource.group !== '' || a.resource.resource !== 'nodes' || a.subresource !== '') return undefined;
    const node = a.object as Node | null;
    if (node === null) return undefined;
    const spec = (node.spec ??= {});
    const taints: Taint[] = spec.taints ?? [];
    // Taint.MatchTaint: the same key and effect.
    if (!taints.some((t) => t.key === notReadyTaintKey && t.effect === 'NoSchedule'))
      spec.taints = [...taints, { key: notReadyTaintKey, effect: 'NoSchedule' }];
    return undefined;
  }
}
