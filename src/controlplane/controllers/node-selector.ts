// A node against a required NodeSelector (k8s.io/component-helpers/scheduling/corev1/nodeaffinity):
// its terms ORed, each term's requirements ANDed over the node's labels (matchExpressions) and its
// name (matchFields on metadata.name). The scheduler's NodeAffinity filter, the DaemonSet
// controller and a PersistentVolume's nodeAffinity (CheckNodeAffinity) share it; a StorageClass's
// allowedTopologies match by labels alone (MatchTopologySelectorTerms).
import type { Node } from '../../api/core/v1/node.js';
import type {
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
} from '../../api/core/v1/persistent-volume.js';
import type { TopologySelectorTerm } from '../../api/storage/v1/storage-class.js';

function requirementHolds(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator ?? '') {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1) return false;
      const [have, want] = [Number.parseInt(value, 10), Number.parseInt(values[0] ?? '', 10)];
      if (Number.isNaN(have) || Number.isNaN(want)) return false;
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** A term with no requirements matches nothing (nodeaffinity's NodeSelectorTerm semantics). */
function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length + fields.length === 0) return false;
  const label = (key = ''): string | undefined => (Object.hasOwn(labels, key) ? labels[key] : undefined);
  return (
    exprs.every((r) => requirementHolds(r, label(r.key))) &&
    fields.every((r) => requirementHolds(r, r.key === 'metadata.name' ? node.metadata?.name : undefined))
  );
}

/** A required NodeSelector (its terms ORed); none selects every node. */
export function matchesNodeSelector(selector: NodeSelector | undefined, node: Node): boolean {
  if (selector === undefined) return true;
  return (selector.nodeSelectorTerms ?? []).some((t) => termMatches(t, node));
}

/** MatchTopologySelectorTerms: no terms select every node; else one term's labels all hold. */
export function matchesTopologyTerms(
  terms: readonly TopologySelectorTerm[] | undefined,
  node: Node,
): boolean {
  if (terms === undefined || terms.length === 0) return true;
  const labels = node.metadata?.labels ?? {};
  return terms.some((t) =>
    (t.matchLabelExpressions ?? []).every(
      (e) => Object.hasOwn(labels, e.key) && e.values.includes(labels[e.key] ?? ''),
    ),
  );
}
