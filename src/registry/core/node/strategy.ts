// Node policy (pkg/registry/core/node/strategy.go): any field, status included, may be set on
// create; updates of nodes keep status and updates of nodes/status keep spec.
import type { Node, NodeSpec } from '../../../api/core/v1/node.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForCIDR } from '../../networking/ip-warnings.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateNode, validateNodeUpdate } from './validation.js';

/** The v1 conversion keeps podCIDR as the first of podCIDRs, and podCIDR alone fills podCIDRs. */
function syncPodCIDRs(spec: NodeSpec | undefined): void {
  if (spec === undefined) return;
  const first = spec.podCIDRs?.[0];
  if (first !== undefined) spec.podCIDR = first;
  else if ((spec.podCIDR ?? '') !== '') spec.podCIDRs = [spec.podCIDR ?? ''];
}

/** SetDefaults_NodeStatus: a node that reports its capacity but no allocatable can allocate it all. */
function defaultAllocatable(node: Node): void {
  const status = node.status;
  if (status?.capacity !== undefined && status.allocatable === undefined)
    status.allocatable = { ...status.capacity };
}

/** SetDefaults_NodeStatus, then SetDefaults_ResourceList on capacity and allocatable. */
function setNodeDefaults(node: Node): void {
  defaultAllocatable(node);
  roundUpResourceList(node.status?.capacity);
  roundUpResourceList(node.status?.allocatable);
}

/** nodeWarnings: the removed dynamic kubelet config, the unused externalID, non-standard pod CIDRs. */
function nodeWarnings(node: Node): string[] {
  const warnings: string[] = [];
  if (node.spec?.configSource !== undefined) warnings.push('spec.configSource: the feature is removed');
  if ((node.spec?.externalID ?? '') !== '')
    warnings.push('spec.externalID: this field is deprecated, and is unused by Kubernetes');
  (node.spec?.podCIDRs ?? []).forEach((cidr, i) =>
    warnings.push(...warningsForCIDR(() => FieldPath.of('spec', 'podCIDRs').index(i), cidr)),
  );
  return warnings;
}

export const nodeStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setNodeDefaults,
  prepareForCreate: (_ctx, node) => {
    syncPodCIDRs(node.spec);
    setNodeDefaults(node);
  },
  validate: (_ctx, node) => validateNode(node),
  warningsOnCreate: (_ctx, node) => nodeWarnings(node),
  prepareForUpdate: (_ctx, node, old) => {
    syncPodCIDRs(node.spec);
    if (old.status !== undefined) node.status = old.status;
    else delete node.status;
  },
  validateUpdate: (_ctx, node, old) => [...validateNode(node), ...validateNodeUpdate(node, old)],
  warningsOnUpdate: (_ctx, node) => nodeWarnings(node),
} satisfies CreateStrategy<Node> & UpdateStrategy<Node>;

/** nodes/status: takes the status, keeps the spec. */
export const nodeStatusStrategy = {
  ...nodeStrategy,
  prepareForUpdate: (_ctx, node, old) => {
    if (old.spec !== undefined) node.spec = old.spec;
    else delete node.spec;
    setNodeDefaults(node);
  },
  validateUpdate: (_ctx, node, old) => validateNodeUpdate(node, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<Node>;

/** Nodes are deleted at once. */
export const nodeDeleteStrategy = {} satisfies DeleteStrategy<Node>;
