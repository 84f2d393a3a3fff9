// Pod volumes and container volume mounts as kube validates them (ValidateVolumes,
// validateVolumeSource, ValidateVolumeMounts and the path helpers in
// pkg/apis/core/validation/validation.go); volume-sources.ts checks the less common sources.
import type { Container, VolumeMount } from '../../../../api/core/v1/container.js';
import type {
  DownwardAPIVolumeFile,
  KeyToPath,
  Volume,
  VolumeProjection,
} from '../../../../api/core/v1/volume.js';
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
import { quantityOf, quantitySign } from '../quantity.js';
import { validateObjectFieldSelector, volumeFieldPaths } from './env.js';
import { validateResourceFieldSelector } from './resources.js';

const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
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
const mountPropagations = ['Bidirectional', 'HostToContainer', 'None'];

/** validatePathNoBacksteps: no `..` element. */
export function validatePathNoBacksteps(target: string, path: FieldPath): ErrorList {
  return target.split('/').includes('..') ? [FieldError.invalid(path, target, "must not contain '..'")] : [];
}

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

/** validateLocalDescendingPath: relative, without `..`. */
export function validateLocalDescendingPath(target: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (target.startsWith('/')) errs.push(FieldError.invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** ValidateLocalNonReservedPath: also not starting with `..` (as `..data` would). */
export function validateLocalNonReservedPath(target: string, path: FieldPath): ErrorList {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../'))
    errs.push(FieldError.invalid(path, target, "must not start with '..'"));
  return errs;
}

function validateMode(mode: number | undefined, path: FieldPath): ErrorList {
  return mode !== undefined && (mode < 0 || mode > 0o777)
    ? [FieldError.invalid(path, mode, fileModeErrorMsg)]
    : [];
}

/** validateKeyToPath. */
function validateKeyToPath(kp: KeyToPath, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const key = (kp as Partial<KeyToPath>).key ?? '';
  const target = (kp as Partial<KeyToPath>).path ?? '';
  if (key === '') errs.push(FieldError.required(path.child('key')));
  if (target === '') errs.push(FieldError.required(path.child('path')));
  errs.push(...validateLocalNonReservedPath(target, path.child('path')));
  errs.push(...validateMode(kp.mode, path.child('mode')));
  return errs;
}

function validateItems(items: readonly KeyToPath[] | undefined, path: FieldPath): ErrorList {
  return (items ?? []).flatMap((kp, i) => validateKeyToPath(kp, path.index(i)));
}

/** validateDownwardAPIVolumeFile; kube reports at the source's path, not the item's. */
function validateDownwardAPIFile(file: DownwardAPIVolumeFile, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const target = (file as Partial<DownwardAPIVolumeFile>).path ?? '';
  if (target === '') errs.push(FieldError.required(path.child('path')));
  errs.push(...validateLocalNonReservedPath(target, path.child('path')));
  if (file.fieldRef !== undefined) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, volumeFieldPaths, path.child('fieldRef')));
    if (file.resourceFieldRef !== undefined)
      errs.push(
        FieldError.invalid(
          path,
          'resource',
          'fieldRef and resourceFieldRef can not be specified simultaneously',
        ),
      );
  } else if (file.resourceFieldRef !== undefined) {
    errs.push(
      ...validateResourceFieldSelector(file.resourceFieldRef, {
        path: path.child('resourceFieldRef'),
        volume: true,
      }),
    );
  } else {
    errs.push(FieldError.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateMode(file.mode, path.child('mode')));
  return errs;
}

/** A clusterTrustBundle projection: by name or by signer name (with a selector), at a local path. */
function validateClusterTrustBundleProjection(
  ctb: NonNullable<VolumeProjection['clusterTrustBundle']>,
  at: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  if (ctb.name !== undefined && ctb.signerName !== undefined)
    errs.push(FieldError.invalid(at, ctb, 'only one of name and signerName may be used'));
  else if (ctb.name !== undefined) {
    if (ctb.name === '') errs.push(FieldError.required(at.child('name'), 'must be a valid object name'));
    if (ctb.labelSelector !== undefined)
      errs.push(
        FieldError.invalid(
          at.child('labelSelector'),
          ctb.labelSelector,
          'labelSelector must be unset if name is specified',
        ),
      );
  } else if (ctb.signerName !== undefined) {
    if (ctb.signerName === '')
      errs.push(FieldError.required(at.child('signerName'), 'must be a valid signer name'));
  } else errs.push(FieldError.required(at, 'either name or signerName must be specified'));
  const target = ctb.path ?? '';
  if (target === '') errs.push(FieldError.required(at.child('path')));
  errs.push(...validateLocalNonReservedPath(target, at.child('path')));
  return errs;
}

/** validateProjectionSources: one type per source, no path projected twice. */
function validateProjection(sources: readonly VolumeProjection[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const paths = new Set<string>();
  const claim = (target: string, name: string): void => {
    if (target === '') return;
    if (paths.has(target)) errs.push(FieldError.invalid(path, name, 'conflicting duplicate paths'));
    else paths.add(target);
  };
  (sources ?? []).forEach((source, i) => {
    const sp = path.child('sources').index(i);
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const src = source[kind];
      if (src === undefined) continue;
      count++;
      const name = src.name ?? '';
      if (name === '') errs.push(FieldError.required(sp.child(kind, 'name')));
      (src.items ?? []).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, sp.child(kind, 'items').index(j)));
        claim((kp as Partial<KeyToPath>).path ?? '', name);
      });
    }
    if (source.downwardAPI !== undefined) {
      count++;
      for (const file of source.downwardAPI.items ?? []) {
        errs.push(...validateDownwardAPIFile(file, sp.child('downwardAPI')));
        claim((file as Partial<DownwardAPIVolumeFile>).path ?? '', '');
      }
    }
    const token = source.serviceAccountToken;
    if (token !== undefined) {
      count++;
      const tp = sp.child('serviceAccountToken');
      const seconds = token.expirationSeconds ?? 3600;
      if (seconds < 600)
        errs.push(
          FieldError.invalid(
            tp.child('expirationSeconds'),
            seconds,
            'may not specify a duration less than 10 minutes',
          ),
        );
      if (seconds > 2 ** 32)
        errs.push(
          FieldError.invalid(
            tp.child('expirationSeconds'),
            seconds,
            'may not specify a duration larger than 2^32 seconds',
          ),
        );
      const target = (token as Partial<typeof token>).path ?? '';
      if (target === '') errs.push(FieldError.required(tp.child('path')));
      else claim(target, '');
    }
    if (source.clusterTrustBundle !== undefined) {
      count++;
      const bp = sp.child('clusterTrustBundlePEM');
      errs.push(...validateClusterTrustBundleProjection(source.clusterTrustBundle, bp));
      const target = source.clusterTrustBundle.path ?? '';
      if (paths.has(target)) errs.push(FieldError.invalid(path, target, 'conflicting duplicate paths'));
      else paths.add(target);
    }
    if (count > 1) errs.push(FieldError.forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

type VolumeCheck = (v: Volume, at: FieldPath) => ErrorList;

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
    check: (v, p) => [
      ...validateMode(v.projected?.defaultMode, p.child('defaultMode')),
      ...validateProjection(v.projected?.sources, p),
    ],
  },
  { field: 'scaleIO', check: (v, p) => sources.scaleIOErrors(v.scaleIO ?? {}, p) },
  { field: 'csi', check: (v, p) => sources.csiVolumeErrors(v.csi ?? {}, p) },
  { field: 'ephemeral', check: (v, p) => validateEphemeralSource(v.ephemeral ?? {}, p) },
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

/** ValidateTemplateObjectMeta: a claim template's metadata holds only labels and annotations. */
function validateTemplateObjectMeta(meta: ObjectMeta, at: FieldPath): ErrorList {
  const errs = [
    ...validateAnnotations(meta.annotations, at.child('annotations')),
    ...validateLabels(meta.labels, at.child('labels')),
  ];
  for (const [key, value] of Object.entries(meta))
    if (key !== 'labels' && key !== 'annotations' && !isZero(value))
      errs.push(FieldError.forbidden(at.child(key), 'cannot be set'));
  return errs;
}

const isZero = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === 0 ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

/** validateEphemeralVolumeSource: a claim template with a valid claim spec. */
function validateEphemeralSource(src: EphemeralVolumeSource, at: FieldPath): ErrorList {
  const template = src.volumeClaimTemplate;
  const tp = at.child('volumeClaimTemplate');
  if (template === undefined) return [FieldError.required(tp)];
  return [
    ...validateTemplateObjectMeta(template.metadata ?? {}, tp.child('metadata')),
    ...validatePersistentVolumeClaimSpec(template.spec ?? {}, tp.child('spec')),
  ];
}

/** validateVolumeSource: exactly one source, itself valid, plus the checks that need the volume's name. */
function validateVolumeSource(v: Volume, path: FieldPath, podName: string): ErrorList {
  const errs: ErrorList = [];
  let found = false;
  for (const rule of sourceRules) {
    if (v[rule.field] === undefined) continue;
    if (found) {
      errs.push(
        FieldError.forbidden(
          path.child(rule.forbiddenPath ?? rule.field),
          'may not specify more than 1 volume type',
        ),
      );
    } else {
      found = true;
      errs.push(...rule.check(v, path.child(rule.checkPath ?? rule.field)));
      errs.push(...nameChecks(v, path, podName));
    }
    if (rule.field === 'iscsi' && v.iscsi !== undefined && sources.iscsiNameTooLong(v.iscsi, v.name))
      errs.push(FieldError.invalid(path.child('name'), v.name, sources.iscsiTooLongMessage));
  }
  if (!found) errs.push(FieldError.required(path, 'must specify a volume type'));
  return errs;
}

/** An ephemeral volume's claim is named `<pod>-<volume>`: that must be a valid claim name. */
function nameChecks(v: Volume, path: FieldPath, podName: string): ErrorList {
  if (v.ephemeral === undefined || podName === '' || v.name === '') return [];
  const claim = `${podName}-${v.name}`;
  return nameIsDNSSubdomain(claim, false).map((msg) =>
    FieldError.invalid(path.child('name'), v.name, `PVC name ${goQuote(claim)}: ${msg}`),
  );
}

/**
 * ValidateVolumes: the errors and the names of the valid volumes, which mounts may use. `podName`
 * (empty for templates) names the claims ephemeral volumes create.
 */
export function validateVolumes(
  volumes: readonly Volume[] | undefined,
  path: FieldPath,
  podName = '',
): { errs: ErrorList; names: Map<string, Volume> } {
  const errs: ErrorList = [];
  const names = new Map<string, Volume>();
  const createdClaims = new Set<string>();
  if (podName !== '')
    for (const v of volumes ?? []) if (v.ephemeral !== undefined) createdClaims.add(`${podName}-${v.name}`);
  (volumes ?? []).forEach((v, i) => {
    const p = path.index(i);
    const name = (v as Partial<Volume>).name ?? '';
    const el = validateVolumeSource(v, p, podName);
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

/** validateMountPropagation: a known mode; Bidirectional only for privileged containers. */
function validateMountPropagation(mode: string, container: Container, path: FieldPath): ErrorList {
  if (!mountPropagations.includes(mode)) return [FieldError.notSupported(path, mode, mountPropagations)];
  if (mode === 'Bidirectional' && container.securityContext?.privileged !== true)
    return [
      FieldError.forbidden(
        path,
        'Bidirectional mount propagation is available only to privileged containers',
      ),
    ];
  return [];
}

const recursiveReadOnlyModes = ['Disabled', 'Enabled', 'IfPossible'];

/** validateMountRecursiveReadOnly: Enabled and IfPossible need a read-only mount without propagation. */
function validateMountRecursiveReadOnly(mnt: VolumeMount, at: FieldPath): ErrorList {
  const mode = mnt.recursiveReadOnly;
  if (mode === undefined || mode === 'Disabled') return [];
  if (!recursiveReadOnlyModes.includes(mode))
    return [FieldError.notSupported(at, mode, recursiveReadOnlyModes)];
  const errs: ErrorList = [];
  if (mnt.readOnly !== true)
    errs.push(FieldError.forbidden(at, 'may only be specified when readOnly is true'));
  if (mnt.mountPropagation !== undefined && mnt.mountPropagation !== 'None')
    errs.push(
      FieldError.forbidden(at, 'may only be specified when mountPropagation is None or not specified'),
    );
  return errs;
}

/** ValidateVolumeMounts: each mount names a valid volume, at a path unique in the container. */
export function validateVolumeMounts(
  container: Container,
  volumes: ReadonlyMap<string, Volume>,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const mountPoints = new Set<string>();
  (container.volumeMounts ?? []).forEach((mnt, i) => {
    const p = path.index(i);
    const name = (mnt as Partial<VolumeMount>).name ?? '';
    const mountPath = (mnt as Partial<VolumeMount>).mountPath ?? '';
    if (name === '') errs.push(FieldError.required(p.child('name')));
    if (!volumes.has(name)) errs.push(FieldError.notFound(p.child('name'), name));
    if (mountPath === '') errs.push(FieldError.required(p.child('mountPath')));
    if (mountPoints.has(mountPath))
      errs.push(FieldError.invalid(p.child('mountPath'), mountPath, 'must be unique'));
    const devices = container.volumeDevices ?? [];
    if (devices.some((d) => d.name === name))
      errs.push(FieldError.invalid(p.child('name'), name, 'must not already exist in volumeDevices'));
    if (devices.some((d) => d.devicePath === mountPath))
      errs.push(
        FieldError.invalid(
          p.child('mountPath'),
          mountPath,
          'must not already exist as a path in volumeDevices',
        ),
      );
    mountPoints.add(mountPath);
    const subPath = mnt.subPath ?? '';
    const subPathExpr = mnt.subPathExpr ?? '';
    // kube reports these two at the list's path, not the item's.
    if (subPath !== '') errs.push(...validateLocalDescendingPath(subPath, path.child('subPath')));
    if (subPathExpr !== '') {
      if (subPath !== '')
        errs.push(
          FieldError.invalid(
            p.child('subPathExpr'),
            subPathExpr,
            'subPathExpr and subPath are mutually exclusive',
          ),
        );
      errs.push(...validateLocalDescendingPath(subPathExpr, path.child('subPathExpr')));
    }
    if (mnt.mountPropagation !== undefined)
      errs.push(...validateMountPropagation(mnt.mountPropagation, container, path.child('mountPropagation')));
    errs.push(...validateMountRecursiveReadOnly(mnt, p.child('recursiveReadOnly')));
  });
  return errs;
}

/** ValidateVolumeDevices: raw block devices come from claims, at unique paths no mount uses. */
export function validateVolumeDevices(
  container: Container,
  volumes: ReadonlyMap<string, Volume>,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  const mounts = container.volumeMounts ?? [];
  (container.volumeDevices ?? []).forEach((dev, i) => {
    const p = path.index(i);
    const name = dev.name ?? '';
    const devicePath = dev.devicePath ?? '';
    const volume = volumes.get(name);
    if (name === '') errs.push(FieldError.required(p.child('name')));
    if (names.has(name)) errs.push(FieldError.invalid(p.child('name'), name, 'must be unique'));
    if (volume === undefined) errs.push(FieldError.notFound(p.child('name'), name));
    else if (volume.persistentVolumeClaim === undefined && volume.ephemeral === undefined)
      errs.push(
        FieldError.invalid(
          p.child('name'),
          name,
          'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
        ),
      );
    if (devicePath === '') errs.push(FieldError.required(p.child('devicePath')));
    if (paths.has(devicePath))
      errs.push(FieldError.invalid(p.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath !== '' && devicePath.split('/').includes('..'))
      errs.push(FieldError.invalid(p.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mounts.some((m) => m.name === name))
      errs.push(FieldError.invalid(p.child('name'), name, 'must not already exist in volumeMounts'));
    if (mounts.some((m) => m.mountPath === devicePath))
      errs.push(
        FieldError.invalid(
          p.child('devicePath'),
          devicePath,
          'must not already exist as a path in volumeMounts',
        ),
      );
    if (name !== '') names.add(name);
  });
  return errs;
}
