// Go's %+v of a *metav1.LabelSelector (its generated String()), as kube prints a metric's selector in
// the external metric errors and in the name of an external or per-pod object metric.
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';

export function labelSelectorText(s: LabelSelector | undefined): string {
  if (s === undefined) return 'nil';
  const labels = Object.entries(s.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}: ${v},`)
    .join('');
  const expressions = (s.matchExpressions ?? [])
    .map(
      (e) =>
        `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
