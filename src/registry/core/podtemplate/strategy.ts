// PodTemplate policy (pkg/registry/core/podtemplate/strategy.go): the template gets the pod
// defaults; a change of the template moves metadata.generation (the Store tracks it).
import type { PodTemplate } from '../../../api/core/v1/pod-template.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { setPodTemplateSpecDefaults } from './defaults.js';
import { validatePodTemplate, validatePodTemplateUpdate } from './validation.js';

function setDefaults(obj: PodTemplate): void {
  setPodTemplateSpecDefaults((obj.template ??= {}));
}

export const podTemplateStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDefaults,
  prepareForCreate: (_ctx, obj) => {
    setDefaults(obj);
  },
  validate: (_ctx, obj) => validatePodTemplate(obj),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, obj) => {
    setDefaults(obj);
  },
  validateUpdate: (_ctx, obj, old) => validatePodTemplateUpdate(obj, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<PodTemplate> & UpdateStrategy<PodTemplate>;

/** PodTemplates are deleted at once. */
export const podTemplateDeleteStrategy = {} satisfies DeleteStrategy<PodTemplate>;
