// VolumeAttachment policy (pkg/registry/storage/volumeattachment/strategy.go) and validation
// (ValidateVolumeAttachment, ValidateVolumeAttachmentUpdate in pkg/apis/storage/validation).
import type { VolumeAttachment } from '../../../api/storage/v1/volume-attachment.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Subdomain,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

const exactlyOneSource = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

/** ValidateVolumeAttachment: the spec (metadata with DNS-subdomain names, then the fields). */
export function validateVolumeAttachment(va: VolumeAttachment): ErrorList {
  return [
    ...validateObjectMeta(va.metadata ?? {}, { requiresNamespace: false, validateName: nameIsDNSSubdomain }),
    ...validateVolumeAttachmentFields(va),
  ];
}

function validateVolumeAttachmentFields(va: VolumeAttachment): ErrorList {
  const path = FieldPath.of('spec');
  const spec = va.spec;
  const errs: ErrorList = [];
  if (spec.attacher === '') errs.push(FieldError.required(path.child('attacher'), ''));
  else {
    errs.push(
      ...isDNS1123Subdomain(spec.attacher.toLowerCase()).map((m) =>
        FieldError.invalid(path.child('attacher'), spec.attacher, m),
      ),
    );
  }
  const { persistentVolumeName, inlineVolumeSpec } = spec.source;
  const sourcePath = path.child('source');
  if (persistentVolumeName === undefined && inlineVolumeSpec === undefined) {
    errs.push(FieldError.required(sourcePath, exactlyOneSource));
  } else if (persistentVolumeName !== undefined && inlineVolumeSpec !== undefined) {
    errs.push(FieldError.forbidden(sourcePath, exactlyOneSource));
  } else if (persistentVolumeName === '') {
    errs.push(
      FieldError.required(
        sourcePath.child('persistentVolumeName'),
        'must specify non empty persistentVolumeName',
      ),
    );
  }
  if (spec.nodeName === '') errs.push(FieldError.required(path.child('nodeName'), ''));
  else
    errs.push(
      ...isDNS1123Subdomain(spec.nodeName).map((m) =>
        FieldError.invalid(path.child('nodeName'), spec.nodeName, m),
      ),
    );
  return errs;
}

/** ValidateVolumeAttachmentUpdate: the spec is immutable. */
export function validateVolumeAttachmentUpdate(va: VolumeAttachment, old: VolumeAttachment): ErrorList {
  const errs = validateVolumeAttachment(va);
  if (JSON.stringify(va.spec) !== JSON.stringify(old.spec)) {
    errs.push(FieldError.invalid(FieldPath.of('spec'), va.spec, 'field is immutable'));
  }
  return errs;
}

/** The status's error messages are free text; attachmentMetadata keys are plain strings. */
export function validateVolumeAttachmentStatus(va: VolumeAttachment): ErrorList {
  const status = va.status;
  if (status === undefined) return [];
  const errs: ErrorList = [];
  for (const name of ['attachError', 'detachError'] as const) {
    const code = status[name]?.errorCode;
    if (code !== undefined && code < 0) {
      errs.push(
        FieldError.invalid(
          FieldPath.of('status', name, 'errorCode'),
          code,
          'must be greater than or equal to 0',
        ),
      );
    }
  }
  return errs;
}

/**
 * SetObjectDefaults_VolumeAttachment: an inline volume spec gets SetDefaults_ResourceList on its
 * capacity (its sources' defaults are the schema's), but not SetDefaults_PersistentVolume.
 */
export function setVolumeAttachmentDefaults(va: VolumeAttachment): void {
  const inline = (va.spec as Partial<VolumeAttachment['spec']> | undefined)?.source?.inlineVolumeSpec;
  roundUpResourceList(inline?.['capacity'] as Record<string, string> | undefined);
}

export const volumeAttachmentStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setVolumeAttachmentDefaults,
  prepareForCreate: (_ctx, va) => {
    setVolumeAttachmentDefaults(va);
    delete va.status;
  },
  validate: (_ctx, va) => validateVolumeAttachment(va),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, va, old) => {
    setVolumeAttachmentDefaults(va);
    if (old.status !== undefined) va.status = old.status;
    else delete va.status;
  },
  validateUpdate: (_ctx, va, old) => validateVolumeAttachmentUpdate(va, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<VolumeAttachment> & UpdateStrategy<VolumeAttachment>;

/** volumeattachments/status: takes the status, keeps the spec. */
export const volumeAttachmentStatusStrategy = {
  ...volumeAttachmentStrategy,
  prepareForUpdate: (_ctx, va, old) => {
    va.spec = old.spec;
  },
  validateUpdate: (_ctx, va) => validateVolumeAttachmentStatus(va),
} satisfies UpdateStrategy<VolumeAttachment>;

export const volumeAttachmentDeleteStrategy = {} satisfies DeleteStrategy<VolumeAttachment>;
