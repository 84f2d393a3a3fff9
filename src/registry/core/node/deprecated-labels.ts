// Node labels kube has retired and the warnings that name them where pods and volumes select nodes
// (GetNodeLabelDeprecatedMessage and GetWarningsForNodeSelectorTerm of pkg/api/node/util.go).
import type { NodeSelectorTerm } from '../../../api/core/v1/persistent-volume.js';
import { isValidLabelValue, type FieldPath } from '../../../machinery/validation/index.js';

const deprecatedNodeLabels: ReadonlyMap<string, string> = new Map([
  ['beta.kubernetes.io/arch', 'deprecated since v1.14; use "kubernetes.io/arch" instead'],
  ['beta.kubernetes.io/os', 'deprecated since v1.14; use "kubernetes.io/os" instead'],
  [
    'failure-domain.beta.kubernetes.io/region',
    'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  ],
  [
    'failure-domain.beta.kubernetes.io/zone',
    'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  ],
  [
    'beta.kubernetes.io/instance-type',
    'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  ],
  ['app.kubernetes.io/created-by', 'deprecated since v1.9'],
  [
    'scheduler.alpha.kubernetes.io/preferAvoidPods',
    'deprecated since v1.22; use Taints and Tolerations instead',
  ],
  ['node-role.kubernetes.io/master', 'use "node-role.kubernetes.io/control-plane" instead'],
]);

/** Why a node label key should no longer be used; undefined for a label in good standing. */
export function deprecatedNodeLabelMessage(key: string): string | undefined {
  return deprecatedNodeLabels.get(key);
}

/**
 * The warnings for one node selector term at `path` (built only for a warning): retired label keys in its expressions and, for
 * preferred terms (`checkValues`), values that could never match a label.
 */
export function warningsForNodeSelectorTerm(
  term: NodeSelectorTerm | undefined,
  checkValues: boolean,
  path: () => FieldPath,
): string[] {
  const warnings: string[] = [];
  (term?.matchExpressions ?? []).forEach((expression, i) => {
    const key = expression.key ?? '';
    const msg = deprecatedNodeLabelMessage(key);
    if (msg !== undefined)
      warnings.push(`${path().child('matchExpressions').index(i).child('key').toString()}: ${key} is ${msg}`);
    if (!checkValues) return;
    (expression.values ?? []).forEach((value, j) => {
      for (const problem of isValidLabelValue(value))
        warnings.push(
          `${path().child('matchExpressions').index(i).child('values').index(j).toString()}: ${value} is invalid, ${problem}`,
        );
    });
  });
  return warnings;
}
