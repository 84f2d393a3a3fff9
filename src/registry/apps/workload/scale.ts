// The selector part of a workload's Scale (scaleFromDeployment and its siblings in
// pkg/registry/apps/*/storage/storage.go): the label selector in its string form, left out when empty.
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/index.js';

export function scaleSelector(ps: LabelSelector | undefined): { selector?: string } {
  const converted = labelSelectorAsSelector(ps);
  if (!converted.ok) return {};
  const text = converted.selector.toString();
  return text === '' ? {} : { selector: text };
}
