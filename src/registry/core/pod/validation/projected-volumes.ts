// Projected, downward API, configMap and secret items as kube validates them (validateProjectionSources,
// validateDownwardAPIVolumeFile, validateKeyToPath in pkg/apis/core/validation/validation.go).
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import type { DownwardAPIVolumeFile, KeyToPath, VolumeProjection } from '../../../../api/core/v1/volume.js';
import { FieldError, FieldPath, type ErrorList } from '../../../../machinery/validation/index.js';
import { validateObjectFieldSelector, volumeFieldPaths } from './env.js';
import { validateResourceFieldSelector } from './resources.js';
import { validateLocalNonReservedPath } from './volume-paths.js';

const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';

export function validateMode(mode: number | undefined, path: FieldPath): ErrorList {
  return mode !== undefined && (mode < 0 || mode > 0o777)
    ? [FieldError.invalid(path, mode, fileModeErrorMsg)]
    : [];
}

/** validateKeyToPath. */
export function validateKeyToPath(kp: KeyToPath, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const key = (kp as Partial<KeyToPath>).key ?? '';
  const target = (kp as Partial<KeyToPath>).path ?? '';
  if (key === '') errs.push(FieldError.required(path.child('key')));
  if (target === '') errs.push(FieldError.required(path.child('path')));
  errs.push(...validateLocalNonReservedPath(target, path.child('path')));
  errs.push(...validateMode(kp.mode, path.child('mode')));
  return errs;
}

export function validateItems(items: readonly KeyToPath[] | undefined, path: FieldPath): ErrorList {
  return (items ?? []).flatMap((kp, i) => validateKeyToPath(kp, path.index(i)));
}

/** validateDownwardAPIVolumeFile; kube reports at the source's path, not the item's. */
export function validateDownwardAPIFile(file: DownwardAPIVolumeFile, path: FieldPath): ErrorList {
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
export function validateClusterTrustBundleProjection(
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

/** What validateProjectionSources lets an update keep (kube's PodValidationOptions). */
export interface ProjectionOptions {
  /** The old pod already projects a token outside the volume (AllowNonLocalProjectedTokenPath). */
  readonly allowNonLocalProjectedTokenPath?: boolean;
}

/**
 * A serviceAccountToken projection. Its path errors sit at the volume's `projected.path`, not the
 * source's, and kube leaves the token out of the duplicate-path check.
 */
function validateTokenProjection(
  token: NonNullable<VolumeProjection['serviceAccountToken']>,
  at: { source: FieldPath; volume: FieldPath },
  opts: ProjectionOptions,
): ErrorList {
  const errs: ErrorList = [];
  const seconds = token.expirationSeconds ?? 3600;
  const secondsPath = at.source.child('expirationSeconds');
  if (seconds < 600)
    errs.push(FieldError.invalid(secondsPath, seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > 2 ** 32)
    errs.push(
      FieldError.invalid(secondsPath, seconds, 'may not specify a duration larger than 2^32 seconds'),
    );
  const target = (token as Partial<typeof token>).path ?? '';
  if (target === '') errs.push(FieldError.required(at.volume.child('path')));
  else if (opts.allowNonLocalProjectedTokenPath !== true)
    errs.push(...validateLocalNonReservedPath(target, at.volume.child('path')));
  return errs;
}

/** hasNonLocalProjectedTokenPath: whether a projected token's path leaves its volume. */
export function hasNonLocalProjectedTokenPath(spec: PodSpec | undefined): boolean {
  for (const volume of spec?.volumes ?? [])
    for (const source of volume.projected?.sources ?? []) {
      const target = source.serviceAccountToken?.path;
      if (target !== undefined && validateLocalNonReservedPath(target, FieldPath.of('')).length > 0)
        return true;
    }
  return false;
}

/** validateProjectionSources: one type per source, no path projected twice. */
export function validateProjection(
  sources: readonly VolumeProjection[] | undefined,
  path: FieldPath,
  opts: ProjectionOptions = {},
): ErrorList {
  const errs: ErrorList = [];
  const paths = new Set<string>();
  // kube names the clash by the source's name for secret and configMap items, by the path otherwise.
  const claim = (target: string, shown: string): void => {
    if (paths.has(target)) errs.push(FieldError.invalid(path, shown, 'conflicting duplicate paths'));
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
        const target = (kp as Partial<KeyToPath>).path ?? '';
        if (target !== '') claim(target, name);
      });
    }
    if (source.downwardAPI !== undefined) {
      count++;
      for (const file of source.downwardAPI.items ?? []) {
        errs.push(...validateDownwardAPIFile(file, sp.child('downwardAPI')));
        const target = (file as Partial<DownwardAPIVolumeFile>).path ?? '';
        if (target !== '') claim(target, target);
      }
    }
    if (source.serviceAccountToken !== undefined) {
      count++;
      const at = { source: sp.child('serviceAccountToken'), volume: path };
      errs.push(...validateTokenProjection(source.serviceAccountToken, at, opts));
    }
    if (source.clusterTrustBundle !== undefined) {
      count++;
      const bp = sp.child('clusterTrustBundlePEM');
      errs.push(...validateClusterTrustBundleProjection(source.clusterTrustBundle, bp));
      const target = source.clusterTrustBundle.path ?? '';
      claim(target, target);
    }
    if (count > 1) errs.push(FieldError.forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/**
 * validatePodMetadataAndSpec's check for pods only (a template may project a token its controller's
 * pods will have an account for): a projected token stands for the pod's service account, so a pod
 * naming none (serviceAccount being the deprecated alias v1 conversion reads) may not project one.
 */
export function validateTokenProjectionsHaveAccount(spec: PodSpec, errs: ErrorList): void {
  if ((spec.serviceAccountName ?? '') !== '' || (spec.serviceAccount ?? '') !== '') return;
  const volumes = spec.volumes;
  if (volumes == null) return;
  for (let vi = 0; vi < volumes.length; vi++) {
    const sources = volumes[vi]?.projected?.sources;
    if (sources == null) continue;
    for (let si = 0; si < sources.length; si++)
      if (sources[si]?.serviceAccountToken != null)
        errs.push(
          FieldError.forbidden(
            FieldPath.of('spec', 'volumes')
              .index(vi)
              .child('projected', 'sources')
              .index(si)
              .child('serviceAccountToken'),
            'must not be specified when serviceAccountName is not set',
          ),
        );
  }
}
