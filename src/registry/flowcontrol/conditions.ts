// The status checks both flowcontrol kinds share (ValidateFlowSchemaStatus and
// ValidatePriorityLevelConfigurationStatus): condition types present and unique.
import type { FlowcontrolCondition } from '../../api/flowcontrol/v1/flow-schema.js';
import { FieldError, type ErrorList, type FieldPath } from '../../machinery/validation/index.js';

export function validateConditions(conditions: readonly FlowcontrolCondition[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const type = c.type ?? '';
    if (seen.has(type)) errs.push(FieldError.duplicate(path.index(i).child('type'), type));
    seen.add(type);
    if (type === '') errs.push(FieldError.required(path.index(i).child('type'), 'must not be empty'));
  });
  return errs;
}
