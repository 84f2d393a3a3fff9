// Pod volumes and container volume mounts as kube validates them (ValidateVolumes,
// validateVolumeSource, ValidateVolumeMounts and the path helpers in
// pkg/apis/core/validation/validation.go), for the volume sources Capstan's API carries.
import type { Container, VolumeMount } from '../../../../api/core/v1/container.js';
import type {
  DownwardAPIVolumeFile,
  KeyToPath,
  Volume,
  VolumeProjection,
} from '../../../../api/core/v1/volume.js';
import {
  FieldError,
  isDNS1123Label,
  validateOneSource,
  type ErrorList,
  type FieldPath,
  type SourceCheck,
} from '../../../../machinery/validation/index.js';
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
    if (count > 1) errs.push(FieldError.forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/** The checks of each source type, in the order validateVolumeSource visits them. */
const sourceChecks: readonly SourceCheck<Volume>[] = [
  [
    'emptyDir',
    (v, p) => {
      const limit = v.emptyDir?.sizeLimit;
      const q = limit === undefined ? undefined : quantityOf(limit);
      return q !== undefined && quantitySign(q) < 0
        ? [FieldError.forbidden(p.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')]
        : [];
    },
  ],
  ['hostPath', (v, p) => validateHostPathSource(v.hostPath ?? {}, p)],
  [
    'secret',
    (v, p) => {
      const errs: ErrorList = [];
      if ((v.secret?.secretName ?? '') === '') errs.push(FieldError.required(p.child('secretName')));
      errs.push(...validateMode(v.secret?.defaultMode, p.child('defaultMode')));
      errs.push(...validateItems(v.secret?.items, p.child('items')));
      return errs;
    },
  ],
  [
    'persistentVolumeClaim',
    (v, p) =>
      (v.persistentVolumeClaim?.claimName ?? '') === '' ? [FieldError.required(p.child('claimName'))] : [],
  ],
  [
    'downwardAPI',
    (v, p) => [
      ...validateMode(v.downwardAPI?.defaultMode, p.child('defaultMode')),
      ...(v.downwardAPI?.items ?? []).flatMap((file) => validateDownwardAPIFile(file, p)),
    ],
  ],
  [
    'configMap',
    (v, p) => {
      const errs: ErrorList = [];
      if ((v.configMap?.name ?? '') === '') errs.push(FieldError.required(p.child('name')));
      errs.push(...validateMode(v.configMap?.defaultMode, p.child('defaultMode')));
      errs.push(...validateItems(v.configMap?.items, p.child('items')));
      return errs;
    },
  ],
  [
    'projected',
    (v, p) => [
      ...validateMode(v.projected?.defaultMode, p.child('defaultMode')),
      ...validateProjection(v.projected?.sources, p),
    ],
  ],
];

/** validateVolumeSource: exactly one source, itself valid. */
function validateVolumeSource(v: Volume, path: FieldPath): ErrorList {
  return validateOneSource(v, sourceChecks, path);
}

/** ValidateVolumes: the errors and the names of the valid volumes, which mounts may use. */
export function validateVolumes(
  volumes: readonly Volume[] | undefined,
  path: FieldPath,
): { errs: ErrorList; names: Set<string> } {
  const errs: ErrorList = [];
  const names = new Set<string>();
  (volumes ?? []).forEach((v, i) => {
    const p = path.index(i);
    const name = (v as Partial<Volume>).name ?? '';
    const el = validateVolumeSource(v, p);
    if (name === '') el.push(FieldError.required(p.child('name')));
    else for (const msg of isDNS1123Label(name)) el.push(FieldError.invalid(p.child('name'), name, msg));
    if (names.has(name)) el.push(FieldError.duplicate(p.child('name'), name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
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

/** ValidateVolumeMounts: each mount names a valid volume, at a path unique in the container. */
export function validateVolumeMounts(
  container: Container,
  volumes: ReadonlySet<string>,
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
  });
  return errs;
}
