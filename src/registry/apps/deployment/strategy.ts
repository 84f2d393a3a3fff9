// Deployment policy (pkg/registry/apps/deployment/strategy.go): create starts with an empty status
// and generation 1; spec and annotation changes bump the generation; /status keeps spec and labels.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import { jsonEqual } from '../../generic/object-meta.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { setDeploymentDefaults } from './defaults.js';
import {
  validateDeployment,
  validateDeploymentStatusUpdate,
  validateDeploymentUpdate,
} from './validation.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPodTemplate, workloadNameWarnings } from '../../core/pod/warnings.js';

const templatePath = FieldPath.of('spec', 'template');

export const deploymentStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDeploymentDefaults,
  prepareForCreate: (_ctx, d) => {
    setDeploymentDefaults(d);
    d.status = {};
  },
  validate: (_ctx, d) => validateDeployment(d),
  warningsOnCreate: (_ctx, d) =>
    workloadNameWarnings(d.metadata?.name).concat(warningsForPodTemplate(templatePath, d.spec?.template)),
  prepareForUpdate: (_ctx, d, old) => {
    setDeploymentDefaults(d);
    d.status = old.status ?? {};
    // Annotations are copied to the ReplicaSets, so changing them is a new generation too.
    if (!jsonEqual(d.metadata?.annotations ?? {}, old.metadata?.annotations ?? {})) {
      const meta = (d.metadata ??= {});
      meta.generation = (old.metadata?.generation ?? 0) + 1;
    }
  },
  validateUpdate: (_ctx, d, old) => validateDeploymentUpdate(d, old),
  warningsOnUpdate: (_ctx, d, old) =>
    d.metadata?.generation !== old.metadata?.generation
      ? warningsForPodTemplate(templatePath, d.spec?.template)
      : [],
} satisfies CreateStrategy<Deployment> & UpdateStrategy<Deployment>;

/** deployments/status: takes the status, keeps the spec and the labels. */
export const deploymentStatusStrategy = {
  ...deploymentStrategy,
  prepareForUpdate: (_ctx, d, old) => {
    d.spec = old.spec ?? {};
    const meta = (d.metadata ??= {});
    if (old.metadata?.labels !== undefined) meta.labels = old.metadata.labels;
    else delete meta.labels;
  },
  validateUpdate: (_ctx, d, old) => validateDeploymentStatusUpdate(d, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<Deployment>;

export const deploymentDeleteStrategy = {} satisfies DeleteStrategy<Deployment>;
