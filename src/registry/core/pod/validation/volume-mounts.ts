// Container volume mounts and devices as kube validates them (ValidateVolumeMounts,
// ValidateVolumeDevices, validateMountPropagation and validateMountRecursiveReadOnly in
// pkg/apis/core/validation/validation.go).
import type { Container, VolumeMount } from '../../../../api/core/v1/container.js';
import type { Volume } from '../../../../api/core/v1/volume.js';

import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import { validateLocalDescendingPath } from './volume-paths.js';

const mountPropagations = ['Bidirectional', 'HostToContainer', 'None'];

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

interface PathIndex {
  hasName(name: string): boolean;
  hasPath(path: string): boolean;
}

/**
 * GetVolumeMountMap / GetVolumeDeviceMap: name to path as a Go map holds them, so a name listed
 * twice keeps only its last path.
 */
function pathIndex(pairs: readonly (readonly [string, string])[]): PathIndex {
  const byName = new Map(pairs);
  const paths = new Set(byName.values());
  return { hasName: (name) => byName.has(name), hasPath: (path) => paths.has(path) };
}

/** No names and no paths: the index of a container without devices, built without allocating. */
const noPaths: PathIndex = { hasName: () => false, hasPath: () => false };

const mountIndex = (c: Container): PathIndex =>
  pathIndex((c.volumeMounts ?? []).map((m: Partial<VolumeMount>) => [m.name ?? '', m.mountPath ?? '']));
const deviceIndex = (c: Container): PathIndex =>
  pathIndex((c.volumeDevices ?? []).map((d) => [d.name ?? '', d.devicePath ?? '']));

/** ValidateVolumeMounts: each mount names a valid volume, at a path unique in the container. */
export function validateVolumeMounts(
  container: Container,
  volumes: ReadonlyMap<string, Volume>,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const mountPoints = new Set<string>();
  const devices = (container.volumeDevices ?? []).length === 0 ? noPaths : deviceIndex(container);
  (container.volumeMounts ?? []).forEach((mnt, i) => {
    const p = path.index(i);
    const name = (mnt as Partial<VolumeMount>).name ?? '';
    const mountPath = (mnt as Partial<VolumeMount>).mountPath ?? '';
    if (name === '') errs.push(FieldError.required(p.child('name')));
    if (!volumes.has(name)) errs.push(FieldError.notFound(p.child('name'), name));
    if (mountPath === '') errs.push(FieldError.required(p.child('mountPath')));
    if (mountPoints.has(mountPath))
      errs.push(FieldError.invalid(p.child('mountPath'), mountPath, 'must be unique'));
    if (devices.hasName(name))
      errs.push(FieldError.invalid(p.child('name'), name, 'must not already exist in volumeDevices'));
    if (devices.hasPath(mountPath))
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
    // kube reports these at the list's path, not the item's.
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
    errs.push(...validateMountRecursiveReadOnly(mnt, path.child('recursiveReadOnly')));
  });
  return errs;
}

/** ValidateVolumeDevices: raw block devices come from claims, at unique paths no mount uses. */
export function validateVolumeDevices(
  container: Container,
  volumes: ReadonlyMap<string, Volume>,
  path: FieldPath,
): ErrorList {
  if ((container.volumeDevices ?? []).length === 0) return [];
  const errs: ErrorList = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  const mounts = mountIndex(container);
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
    if (mounts.hasName(name))
      errs.push(FieldError.invalid(p.child('name'), name, 'must not already exist in volumeMounts'));
    if (mounts.hasPath(devicePath))
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
