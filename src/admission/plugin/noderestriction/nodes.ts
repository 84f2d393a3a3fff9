// NodeRestriction for Node objects (admission.go admitNode): a node writes only its own Node; it may
// not register with, or switch to, a configSource, change its taints or ownerReferences, or set
// labels outside the kubelet's allowed set.
import type { Node } from '../../../api/core/v1/node.js';
import { goQuote } from '../../../machinery/validation/index.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { forbiddenLabels, modifiedLabels } from './node-labels.js';
import { semanticEqual } from '../../../machinery/json/semantic-equal.js';

export function admitNode(a: Attributes, nodeName: string): void {
  const q = goQuote(nodeName);
  const forbid = (message: string): Error => newAdmissionForbidden(a, message);
  if (a.name !== nodeName) throw forbid(`node ${q} is not allowed to modify node ${goQuote(a.name)}`);
  if (a.operation === 'CREATE') {
    const node = a.object as Node;
    // kube's message says pods here.
    if (node.spec?.configSource != null)
      throw forbid(`node ${q} is not allowed to create pods with a non-nil configSource`);
    const forbidden = forbiddenLabels(modifiedLabels(node.metadata?.labels, undefined));
    if (forbidden.length > 0)
      throw forbid(`node ${q} is not allowed to set the following labels: ${forbidden.join(', ')}`);
  }
  if (a.operation !== 'UPDATE') return;
  const node = a.object as Node;
  const oldNode = a.oldObject as Node;
  const configSource = node.spec?.configSource;
  if (configSource != null && !semanticEqual(configSource, oldNode.spec?.configSource))
    throw forbid(`node ${q} is not allowed to update configSource to a new non-nil configSource`);
  if (!semanticEqual(node.spec?.taints, oldNode.spec?.taints))
    throw forbid(`node ${q} is not allowed to modify taints`);
  if (!semanticEqual(node.metadata?.ownerReferences, oldNode.metadata?.ownerReferences))
    throw forbid(`node ${q} is not allowed to modify ownerReferences`);
  const forbidden = forbiddenLabels(modifiedLabels(node.metadata?.labels, oldNode.metadata?.labels));
  if (forbidden.length > 0) throw forbid(`is not allowed to modify labels: ${forbidden.join(', ')}`);
}
