// SetCRDCondition (apiextensions-apiserver/pkg/apihelpers): sets a condition of a CRD's status,
// moving lastTransitionTime only when the status changes.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
} from '../../api/apiextensions/v1/crd.js';

export function setCRDCondition(
  crd: CustomResourceDefinition,
  condition: CustomResourceDefinitionCondition,
): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (existing === undefined) {
    conditions.push(condition);
    return;
  }
  if (existing.status !== condition.status && condition.lastTransitionTime !== undefined)
    existing.lastTransitionTime = condition.lastTransitionTime;
  existing.status = condition.status;
  if (condition.reason !== undefined) existing.reason = condition.reason;
  if (condition.message !== undefined) existing.message = condition.message;
}
