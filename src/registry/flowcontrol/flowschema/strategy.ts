// FlowSchema policy (pkg/registry/flowcontrol/flowschema/strategy.go): cluster-scoped, status
// kept apart from the spec, kube's v1 defaults for objects that did not come through the decoder.
import { defaultMatchingPrecedence, type FlowSchema } from '../../../api/flowcontrol/v1/flow-schema.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateFlowSchema, validateFlowSchemaStatus } from './validation.js';

/** SetDefaults_FlowSchemaSpec: a zero matchingPrecedence is 1000. */
export function setFlowSchemaDefaults(fs: FlowSchema): void {
  if ((fs.spec.matchingPrecedence ?? 0) === 0) fs.spec.matchingPrecedence = defaultMatchingPrecedence;
}

export const flowSchemaStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setFlowSchemaDefaults,
  prepareForCreate: (_ctx, fs) => {
    delete fs.status;
    setFlowSchemaDefaults(fs);
  },
  validate: (_ctx, fs) => validateFlowSchema(fs),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, fs, old) => {
    if (old.status !== undefined) fs.status = old.status;
    else delete fs.status;
    setFlowSchemaDefaults(fs);
  },
  validateUpdate: (_ctx, fs) => validateFlowSchema(fs),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<FlowSchema> & UpdateStrategy<FlowSchema>;

/** flowschemas/status: takes the status, keeps the spec. */
export const flowSchemaStatusStrategy = {
  ...flowSchemaStrategy,
  prepareForUpdate: (_ctx, fs, old) => {
    fs.spec = old.spec;
  },
  validateUpdate: (_ctx, fs) => validateFlowSchemaStatus(fs),
} satisfies UpdateStrategy<FlowSchema>;

export const flowSchemaDeleteStrategy = {} satisfies DeleteStrategy<FlowSchema>;
