// Node policy (pkg/registry/core/node/strategy.go): any field, status included, may be set on
// create; updates of nodes keep status and updates of nodes/status keep spec.
import type { Node, NodeSpec } from '../../../api/core/v1/node.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';
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

/** fieldIsDeprecatedWarnings for the deprecated dynamic kubelet config. */
function nodeWarnings(node: Node): string[] {
  return node.spec?.configSource !== undefined
    ? ['spec.configSource: the configSource field is deprecated and will be removed in a future release']
    : [];
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
