// PodTemplate validation (ValidatePodTemplateSpec, ValidatePodTemplate and ValidatePodTemplateUpdate
// in pkg/apis/core/validation/validation.go). The template check is shared by every workload kind.
import type { PodTemplate, PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { validatePodSpec } from '../pod/validation.js';
import {
  validatePodSpecificAnnotations,
  validateSecurityAnnotationsMatchFields,
} from '../pod/validation/pod-annotations.js';

/**
 * ValidatePodTemplateSpec: the template's labels and annotations (at `<path>.labels` and
 * `<path>.annotations`, as kube prints them, without `metadata`), the pod-specific annotations, its
 * pod spec, the seccomp and AppArmor annotations against the fields, and no ephemeral containers.
 * An invalid pod-deletion-cost an old template had is refused on update too: template updates are
 * validated without the old template's relaxations.
 */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: FieldPath): ErrorList {
  const annotations = template.metadata?.annotations;
  const specPath = path.child('spec');
  const errs = [
    ...validateLabels(template.metadata?.labels, path.child('labels')),
    ...validateAnnotations(annotations, path.child('annotations')),
    ...validatePodSpecificAnnotations(annotations, template.spec, { path: path.child('annotations') }),
    ...validatePodSpec(template.spec, specPath),
    ...validateSecurityAnnotationsMatchFields(template, specPath),
  ];
  if ((template.spec?.ephemeralContainers ?? []).length > 0)
    errs.push(
      FieldError.forbidden(
        specPath.child('ephemeralContainers'),
        'ephemeral containers not allowed in pod template',
      ),
    );
  return errs;
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
