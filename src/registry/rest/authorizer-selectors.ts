// kube's Attributes.GetFieldSelector / GetLabelSelector (AuthorizeWithSelectors): the request's
// selectors as requirements. The request filter keeps only the raw text; an authorizer that cares
// parses it here, on its own ask, so a chain that never looks never parses.
import { parseSelector as parseFieldSelector, type FieldRequirement } from '../../machinery/fields/index.js';
import { parseToRequirements, type Requirement } from '../../machinery/labels/index.js';
import type { AuthorizationAttributes, SelectorRequirements } from './authorizer.js';

const none: SelectorRequirements<never> = { requirements: [] };

/** The field selector's requirements, or none with the parse error. */
export function fieldSelectorOf(attrs: AuthorizationAttributes): SelectorRequirements<FieldRequirement> {
  if (attrs.fieldRequirements !== undefined) return attrs.fieldRequirements;
  const raw = attrs.fieldSelector ?? '';
  if (raw === '') return none;
  return parseRawFieldSelector(raw);
}

/** The label selector's requirements, or none with the parse error. */
export function labelSelectorOf(attrs: AuthorizationAttributes): SelectorRequirements<Requirement> {
  if (attrs.labelRequirements !== undefined) return attrs.labelRequirements;
  const raw = attrs.labelSelector ?? '';
  if (raw === '') return none;
  return parseRawLabelSelector(raw);
}

/** fields.ParseSelector's requirements, as kube's filter and ResourceAttributesFrom keep them. */
export function parseRawFieldSelector(raw: string): SelectorRequirements<FieldRequirement> {
  const parsed = parseFieldSelector(raw);
  return parsed.ok
    ? { requirements: parsed.selector.requirements }
    : { requirements: [], error: parsed.message };
}

/** labels.Parse's requirements (sorted by key), as kube's filter and ResourceAttributesFrom keep them. */
export function parseRawLabelSelector(raw: string): SelectorRequirements<Requirement> {
  const parsed = parseToRequirements(raw);
  return parsed.ok ? { requirements: parsed.requirements } : { requirements: [], error: parsed.message };
}
