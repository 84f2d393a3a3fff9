// Which labels a kubelet may set on its own Node (admission.go getForbiddenLabels, and
// k8s.io/kubelet/pkg/apis/well_known_labels.go IsKubeletLabel): nothing under
// node-restriction.kubernetes.io/, and under kubernetes.io or k8s.io only the well-known kubelet
// labels and the kubelet.kubernetes.io/ and node.kubernetes.io/ namespaces.

/** v1.LabelNamespaceNodeRestriction. */
export const nodeRestrictionLabelNamespace = 'node-restriction.kubernetes.io';

const kubeletLabels: ReadonlySet<string> = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);

const kubeletLabelNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** The prefix before the first `/`, or '' when there is none. */
function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

const inNamespace = (namespace: string, domain: string): boolean =>
  namespace === domain || namespace.endsWith(`.${domain}`);

function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true;
  const namespace = labelNamespace(key);
  return kubeletLabelNamespaces.some((d) => inNamespace(namespace, d));
}

function isKubernetesLabel(key: string): boolean {
  const namespace = labelNamespace(key);
  return inNamespace(namespace, 'kubernetes.io') || inNamespace(namespace, 'k8s.io');
}

/** getModifiedLabels: the keys added, removed or changed between the two sets. */
export function modifiedLabels(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(a ?? {})) if (b?.[k] !== v || !Object.hasOwn(b, k)) out.add(k);
  for (const [k, v] of Object.entries(b ?? {})) if (a?.[k] !== v || !Object.hasOwn(a, k)) out.add(k);
  return [...out];
}

/** getForbiddenLabels, sorted as sets.String.List() is. */
export function forbiddenLabels(modified: readonly string[]): string[] {
  const out = modified.filter(
    (key) =>
      inNamespace(labelNamespace(key), nodeRestrictionLabelNamespace) ||
      (isKubernetesLabel(key) && !isKubeletLabel(key)),
  );
  return [...new Set(out)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}
