// Pod volumes and container volume mounts as kube validates them (ValidateVolumes,
// validateVolumeSource, ValidateVolumeMounts and the path helpers in
// pkg/apis/core/validation/validation.go); volume-sources.ts checks the less common sources.

import type { Volume } from '../../../../api/core/v1/volume.js';
import type { ObjectMeta } from '../../../../api/meta.js';
import type { EphemeralVolumeSource } from '../../../../api/core/v1/volume-sources.js';
import {
  FieldError,
  goQuote,
  isDNS1123Label,
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { validatePersistentVolumeClaimSpec } from '../../persistentvolumeclaim/validation.js';
import * as sources from './volume-sources.js';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './volume-paths.js';
import {
  validateDownwardAPIFile,
  validateItems,
  validateMode,
  validateProjection,
  type ProjectionOptions,
} from './projected-volumes.js';
import { quantityOf, quantitySign } from '../quantity.js';

const hostPathTypes = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];

/** validateHostPathVolumeSource, shared by pod volumes and PersistentVolumes. */
export function validateHostPathSource(src: { path?: string; type?: string }, at: FieldPath): ErrorList {
  const target = src.path ?? '';
  if (target === '') return [FieldError.required(at.child('path'))];
  const errs = validatePathNoBacksteps(target, at.child('path'));
  const type = src.type ?? '';
  if (!hostPathTypes.includes(type))
    errs.push(FieldError.notSupported(at.child('type'), type, hostPathTypes));
  return errs;
}

/** What a source's check may need beyond the volume: its list entry's path and the options. */
interface VolumeContext {
  /** The volume's own path, `spec.volumes[0]`. */
  readonly volume: FieldPath;
  readonly opts: VolumesOptions;
}

type VolumeCheck = (v: Volume, at: FieldPath, ctx: VolumeContext) => ErrorList;

/**
 * One source of validateVolumeSource: its field, its check (given the volume's path), and the
 * names kube's messages use where they differ from the field (`persistentDisk`, `cephFS`…).
 */
interface SourceRule {
  readonly field: keyof Volume;
  readonly check: VolumeCheck;
  /** The path the source's own errors use, when not the field. */
  readonly checkPath?: string;
  /** The path of the "more than 1 volume type" error, when not the field. */
  readonly forbiddenPath?: string;
}

const emptyDirCheck: VolumeCheck = (v, p) => {
  const limit = v.emptyDir?.sizeLimit;
  const q = limit === undefined ? undefined : quantityOf(limit);
  return q !== undefined && quantitySign(q) < 0
    ? [FieldError.forbidden(p.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')]
    : [];
};

/** Each source in the order validateVolumeSource visits them. */
const sourceRules: readonly SourceRule[] = [
  { field: 'emptyDir', check: emptyDirCheck },
  { field: 'hostPath', check: (v, p) => validateHostPathSource(v.hostPath ?? {}, p) },
  {
    field: 'gitRepo',
    check: (v, p) => [
      ...((v.gitRepo?.repository ?? '') === '' ? [FieldError.required(p.child('repository'))] : []),
      ...validateLocalDescendingPath(v.gitRepo?.directory ?? '', p.child('directory')),
    ],
  },
  {
    field: 'gcePersistentDisk',
    check: (v, p) => sources.gcePersistentDiskErrors(v.gcePersistentDisk ?? {}, p),
    checkPath: 'persistentDisk',
  },
  {
    field: 'awsElasticBlockStore',
    check: (v, p) => sources.awsElasticBlockStoreErrors(v.awsElasticBlockStore ?? {}, p),
  },
  {
    field: 'secret',
    check: (v, p) => {
      const errs: ErrorList = [];
      if ((v.secret?.secretName ?? '') === '') errs.push(FieldError.required(p.child('secretName')));
      errs.push(...validateMode(v.secret?.defaultMode, p.child('defaultMode')));
      errs.push(...validateItems(v.secret?.items, p.child('items')));
      return errs;
    },
  },
  { field: 'nfs', check: (v, p) => validateNFSSource(v.nfs ?? {}, p) },
  { field: 'iscsi', check: (v, p) => sources.iscsiErrors(v.iscsi ?? {}, p, { persistent: false }) },
  { field: 'glusterfs', check: (v, p) => sources.glusterfsErrors(v.glusterfs ?? {}, p) },
  { field: 'flocker', check: (v, p) => sources.flockerErrors(v.flocker ?? {}, p) },
  {
    field: 'persistentVolumeClaim',
    check: (v, p) =>
      (v.persistentVolumeClaim?.claimName ?? '') === '' ? [FieldError.required(p.child('claimName'))] : [],
  },
  { field: 'rbd', check: (v, p) => sources.rbdErrors(v.rbd ?? {}, p) },
  { field: 'cinder', check: (v, p) => sources.cinderErrors(v.cinder ?? {}, p, { persistent: false }) },
  { field: 'cephfs', check: (v, p) => sources.cephfsErrors(v.cephfs ?? {}, p), forbiddenPath: 'cephFS' },
  { field: 'quobyte', check: (v, p) => sources.quobyteErrors(v.quobyte ?? {}, p) },
  {
    field: 'downwardAPI',
    check: (v, p) => [
      ...validateMode(v.downwardAPI?.defaultMode, p.child('defaultMode')),
      ...(v.downwardAPI?.items ?? []).flatMap((file) => validateDownwardAPIFile(file, p)),
    ],
    forbiddenPath: 'downwarAPI',
  },
  { field: 'fc', check: (v, p) => sources.fcErrors(v.fc ?? {}, p) },
  { field: 'flexVolume', check: (v, p) => sources.flexVolumeErrors(v.flexVolume ?? {}, p) },
  {
    field: 'configMap',
    check: (v, p) => {
      const errs: ErrorList = [];
      if ((v.configMap?.name ?? '') === '') errs.push(FieldError.required(p.child('name')));
      errs.push(...validateMode(v.configMap?.defaultMode, p.child('defaultMode')));
      errs.push(...validateItems(v.configMap?.items, p.child('items')));
      return errs;
    },
  },
  { field: 'azureFile', check: (v, p) => sources.azureFileErrors(v.azureFile ?? {}, p) },
  { field: 'vsphereVolume', check: (v, p) => sources.vsphereVolumeErrors(v.vsphereVolume ?? {}, p) },
  {
    field: 'photonPersistentDisk',
    check: (v, p) => sources.photonPersistentDiskErrors(v.photonPersistentDisk ?? {}, p),
  },
  { field: 'portworxVolume', check: (v, p) => sources.portworxVolumeErrors(v.portworxVolume ?? {}, p) },
  { field: 'azureDisk', check: (v, p) => sources.azureDiskErrors(v.azureDisk ?? {}, p) },
  {
    field: 'storageos',
    check: (v, p) => sources.storageOSErrors(v.storageos ?? {}, p, { persistent: false }),
  },
  {
    field: 'projected',
    check: (v, p, ctx) => [
      ...validateMode(v.projected?.defaultMode, p.child('defaultMode')),
      ...validateProjection(v.projected?.sources, p, ctx.opts),
    ],
  },
  { field: 'scaleIO', check: (v, p) => sources.scaleIOErrors(v.scaleIO ?? {}, p) },
  { field: 'csi', check: (v, p) => sources.csiVolumeErrors(v.csi ?? {}, p) },
  {
    field: 'ephemeral',
    check: (v, p, ctx) => [
      ...validateEphemeralSource(v.ephemeral ?? {}, p),
      ...claimNameErrors(v, ctx.volume, ctx.opts.podName ?? ''),
    ],
  },
  { field: 'image', check: (v, p) => sources.imageVolumeErrors(v.image ?? {}, p) },
];

/** validateNFSVolumeSource, shared with persistent volumes. */
export function validateNFSSource(src: { server?: string; path?: string }, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if ((src.server ?? '') === '') errs.push(FieldError.required(at.child('server')));
  if ((src.path ?? '') === '') errs.push(FieldError.required(at.child('path')));
  if (!(src.path ?? '').startsWith('/'))
    errs.push(FieldError.invalid(at.child('path'), src.path ?? '', 'must be an absolute path'));
  return errs;
}

/**
 * ObjectMeta's fields other than labels and annotations, in Go's declaration order, with the name
 * kube's reflection gives each (its Go name with the first letter lowered: `UID` becomes `uID`),
 * and whether Go holds it as a pointer or slice, where any value sent counts as set, even 0 or [].
 */
const templateMetaFields: readonly (readonly [keyof ObjectMeta, string, 'value' | 'reference'])[] = [
  ['name', 'name', 'value'],
  ['generateName', 'generateName', 'value'],
  ['namespace', 'namespace', 'value'],
  ['selfLink', 'selfLink', 'value'],
  ['uid', 'uID', 'value'],
  ['resourceVersion', 'resourceVersion', 'value'],
  ['generation', 'generation', 'value'],
  ['creationTimestamp', 'creationTimestamp', 'value'],
  ['deletionTimestamp', 'deletionTimestamp', 'reference'],
  ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds', 'reference'],
  ['ownerReferences', 'ownerReferences', 'reference'],
  ['finalizers', 'finalizers', 'reference'],
  ['managedFields', 'managedFields', 'reference'],
];

/** ValidateTemplateObjectMeta: a claim template's metadata holds only labels and annotations. */
function validateTemplateObjectMeta(meta: ObjectMeta, at: FieldPath): ErrorList {
  const errs = [
    ...validateAnnotations(meta.annotations, at.child('annotations')),
    ...validateLabels(meta.labels, at.child('labels')),
  ];
  for (const [key, goName, kind] of templateMetaFields) {
    const value: unknown = meta[key];
    const set = kind === 'reference' ? value != null : value != null && value !== '' && value !== 0;
    if (set) errs.push(FieldError.forbidden(at.child(goName), 'cannot be set'));
  }
  return errs;
}

/** validateEphemeralVolumeSource: a claim template with a valid claim spec. */
function validateEphemeralSource(src: EphemeralVolumeSource, at: FieldPath): ErrorList {
  const template = src.volumeClaimTemplate;
  const tp = at.child('volumeClaimTemplate');
  if (template == null) return [FieldError.required(tp)];
  return [
    ...validateTemplateObjectMeta(template.metadata ?? {}, tp.child('metadata')),
    ...validatePersistentVolumeClaimSpec(template.spec ?? {}, tp.child('spec')),
  ];
}

const ruleIndex = new Map<string, number>(sourceRules.map((r, i) => [r.field, i]));

/** The rules of the sources `v` sets, in the order kube checks them (a volume has a few members, not 30). */
function rulesOf(v: Volume): SourceRule[] {
  const at: number[] = [];
  for (const key of Object.keys(v)) {
    const i = ruleIndex.get(key);
    if (i !== undefined && v[key as keyof Volume] != null) at.push(i);
  }
  return at.sort((x, y) => x - y).map((i) => sourceRules[i] as SourceRule);
}

/** validateVolumeSource: exactly one source, itself valid. */
function validateVolumeSource(v: Volume, path: FieldPath, opts: VolumesOptions): ErrorList {
  const errs: ErrorList = [];
  let found = false;
  for (const rule of rulesOf(v)) {
    if (found) {
      errs.push(
        FieldError.forbidden(
          path.child(rule.forbiddenPath ?? rule.field),
          'may not specify more than 1 volume type',
        ),
      );
    } else {
      found = true;
      errs.push(...rule.check(v, path.child(rule.checkPath ?? rule.field), { volume: path, opts }));
    }
    const name = (v as Partial<Volume>).name ?? '';
    if (rule.field === 'iscsi' && v.iscsi != null && sources.iscsiNameTooLong(v.iscsi, name))
      errs.push(FieldError.invalid(path.child('name'), name, sources.iscsiTooLongMessage));
  }
  if (!found) errs.push(FieldError.required(path, 'must specify a volume type'));
  return errs;
}

/**
 * The claim an ephemeral volume creates is named `<pod>-<volume>`, which must be a valid claim
 * name; kube checks it only when the ephemeral source is the volume's first.
 */
function claimNameErrors(v: Volume, path: FieldPath, podName: string): ErrorList {
  const name = (v as Partial<Volume>).name ?? '';
  if (podName === '' || name === '') return [];
  const claim = `${podName}-${name}`;
  return nameIsDNSSubdomain(claim, false).map((msg) =>
    FieldError.invalid(path.child('name'), name, `PVC name ${goQuote(claim)}: ${msg}`),
  );
}

/** What ValidateVolumes needs beyond the volumes (kube's podMeta and PodValidationOptions). */
export interface VolumesOptions extends ProjectionOptions {
  /** The pod's name, empty for a template: it names the claims ephemeral volumes create. */
  readonly podName?: string;
}

/**
 * ValidateVolumes: the errors and the names of the valid volumes, which mounts may use.
 */
export function validateVolumes(
  volumes: readonly Volume[] | undefined,
  path: FieldPath,
  opts: VolumesOptions = {},
): { errs: ErrorList; names: Map<string, Volume> } {
  const podName = opts.podName ?? '';
  const errs: ErrorList = [];
  const names = new Map<string, Volume>();
  const createdClaims = new Set<string>();
  if (podName !== '')
    for (const v of volumes ?? [])
      if (v.ephemeral != null) createdClaims.add(`${podName}-${(v as Partial<Volume>).name ?? ''}`);
  (volumes ?? []).forEach((v, i) => {
    const p = path.index(i);
    const name = (v as Partial<Volume>).name ?? '';
    const el = validateVolumeSource(v, p, opts);
    if (name === '') el.push(FieldError.required(p.child('name')));
    else for (const msg of isDNS1123Label(name)) el.push(FieldError.invalid(p.child('name'), name, msg));
    if (names.has(name)) el.push(FieldError.duplicate(p.child('name'), name));
    if (el.length === 0) names.set(name, v);
    else errs.push(...el);
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim !== undefined && createdClaims.has(claim))
      errs.push(
        FieldError.invalid(
          p.child('persistentVolumeClaim', 'claimName'),
          claim,
          'must not reference a PVC that gets created for an ephemeral volume',
        ),
      );
  });
  return { errs, names };
}
