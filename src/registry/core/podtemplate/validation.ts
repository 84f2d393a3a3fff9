// PodTemplate validation (ValidatePodTemplateSpec, ValidatePodTemplate and ValidatePodTemplateUpdate
// in pkg/apis/core/validation/validation.go). The template check is shared by every workload kind.
import type { PodTemplate, PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import {
  FieldPath,
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { validatePodSpec } from '../pod/validation.js';

/** ValidatePodTemplateSpec: the template's labels and annotations, then its pod spec. */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: FieldPath): ErrorList {
  const meta = path.child('metadata');
  return [
    ...validateLabels(template.metadata?.labels, meta.child('labels')),
    ...validateAnnotations(template.metadata?.annotations, meta.child('annotations')),
    ...validatePodSpec(template.spec, path.child('spec')),
  ];
}

/** ValidatePodTemplate. */
export function validatePodTemplate(template: PodTemplate): ErrorList {
  return [
    ...validateCoreObjectMeta(template.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validatePodTemplateSpec(template.template ?? {}, FieldPath.of('template')),
  ];
}

/** ValidatePodTemplateUpdate: the metadata update, and the new template is valid. */
export function validatePodTemplateUpdate(template: PodTemplate, old: PodTemplate): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(template.metadata ?? {}, old.metadata ?? {}),
    ...validatePodTemplateSpec(template.template ?? {}, FieldPath.of('template')),
  ];
}
