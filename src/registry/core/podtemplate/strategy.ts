// PodTemplate policy (pkg/registry/core/podtemplate/strategy.go): the template gets the pod
// defaults; a change of the template moves metadata.generation (the Store tracks it).
import type { PodTemplate } from '../../../api/core/v1/pod-template.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { setPodTemplateSpecDefaults } from './defaults.js';
import { validatePodTemplate, validatePodTemplateUpdate } from './validation.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPodTemplate } from '../pod/warnings.js';

function setDefaults(obj: PodTemplate): void {
  setPodTemplateSpecDefaults((obj.template ??= {}));
}

const templatePath = FieldPath.of('template');

export const podTemplateStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDefaults,
  prepareForCreate: (_ctx, obj) => {
    setDefaults(obj);
  },
  validate: (_ctx, obj) => validatePodTemplate(obj),
  warningsOnCreate: (_ctx, obj) => warningsForPodTemplate(templatePath, obj.template),
  prepareForUpdate: (_ctx, obj) => {
    setDefaults(obj);
  },
  validateUpdate: (_ctx, obj, old) => validatePodTemplateUpdate(obj, old),
  warningsOnUpdate: (_ctx, obj, old) =>
    obj.metadata?.generation !== old.metadata?.generation
      ? warningsForPodTemplate(templatePath, obj.template)
      : [],
} satisfies CreateStrategy<PodTemplate> & UpdateStrategy<PodTemplate>;

/** PodTemplates are deleted at once. */
export const podTemplateDeleteStrategy = {} satisfies DeleteStrategy<PodTemplate>;
