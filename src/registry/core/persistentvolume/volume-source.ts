// Validation of the persistent volume sources Capstan knows and of nodeAffinity, from
// ValidatePersistentVolumeSpec's helpers (pkg/apis/core/validation/validation.go).
import { validateHostPathSource, validatePathNoBacksteps } from '../pod/validation/volumes.js';
import type {
  PersistentVolumeSpec,
  SecretReference,
  NodeSelector,
} from '../../../api/core/v1/persistent-volume.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Label,
  isDNS1123Subdomain,
  validateLabelName,
  validateOneSource,
  type ErrorList,
  type SourceCheck,
} from '../../../machinery/validation/index.js';

function nfsErrors(src: NonNullable<PersistentVolumeSpec['nfs']>, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if ((src.server ?? '') === '') errs.push(FieldError.required(at.child('server')));
  if ((src.path ?? '') === '') errs.push(FieldError.required(at.child('path')));
  if (!(src.path ?? '').startsWith('/'))
    errs.push(FieldError.invalid(at.child('path'), src.path ?? '', 'must be an absolute path'));
  return errs;
}

function localErrors(src: NonNullable<PersistentVolumeSpec['local']>, at: FieldPath): ErrorList {
  const path = src.path ?? '';
  return path === ''
    ? [FieldError.required(at.child('path'))]
    : validatePathNoBacksteps(path, at.child('path'));
}

/** ValidateCSIDriverName. */
function csiDriverNameErrors(name: string, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (name === '') errs.push(FieldError.required(at));
  if (name.length > 63) errs.push(FieldError.tooLong(at, 63));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(FieldError.invalid(at, name, msg));
  return errs;
}

function secretRefErrors(ref: SecretReference | undefined, at: FieldPath): ErrorList {
  if (ref === undefined) return [];
  const errs: ErrorList = [];
  const name = ref.name ?? '';
  const ns = ref.namespace ?? '';
  if (name === '') errs.push(FieldError.required(at.child('name')));
  else for (const msg of isDNS1123Subdomain(name)) errs.push(FieldError.invalid(at.child('name'), name, msg));
  if (ns === '') errs.push(FieldError.required(at.child('namespace')));
  else for (const msg of isDNS1123Label(ns)) errs.push(FieldError.invalid(at.child('namespace'), ns, msg));
  return errs;
}

function csiErrors(src: NonNullable<PersistentVolumeSpec['csi']>, at: FieldPath): ErrorList {
  const errs = csiDriverNameErrors(src.driver ?? '', at.child('driver'));
  if ((src.volumeHandle ?? '') === '') errs.push(FieldError.required(at.child('volumeHandle')));
  for (const key of [
    'controllerPublishSecretRef',
    'nodeStageSecretRef',
    'nodePublishSecretRef',
    'controllerExpandSecretRef',
    'nodeExpandSecretRef',
  ] as const) {
    errs.push(...secretRefErrors(src[key], at.child(key)));
  }
  return errs;
}

/** The sources in kube's order; each validates itself when it is the first one set. */
const sources: readonly SourceCheck<PersistentVolumeSpec>[] = [
  [
    'hostPath',
    (s: PersistentVolumeSpec, at: FieldPath) => (s.hostPath ? validateHostPathSource(s.hostPath, at) : []),
  ],
  ['nfs', (s: PersistentVolumeSpec, at: FieldPath) => (s.nfs ? nfsErrors(s.nfs, at) : [])],
  ['local', (s: PersistentVolumeSpec, at: FieldPath) => (s.local ? localErrors(s.local, at) : [])],
  ['csi', (s: PersistentVolumeSpec, at: FieldPath) => (s.csi ? csiErrors(s.csi, at) : [])],
];

/** Exactly one volume source, each valid; local volumes need node affinity. */
export function validateVolumeSource(
  spec: PersistentVolumeSpec,
  at: FieldPath,
  hasNodeAffinity: boolean,
): ErrorList {
  const local: SourceCheck<PersistentVolumeSpec> = [
    'local',
    (s, p) => {
      if (s.local === undefined) return [];
      const errs = localErrors(s.local, p);
      if (hasNodeAffinity) return errs;
      return [...errs, FieldError.required(at.child('nodeAffinity'), 'Local volume requires node affinity')];
    },
  ];
  return validateOneSource(
    spec,
    sources.map((source) => (source[0] === 'local' ? local : source)),
    at,
  );
}

const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

/** ValidateNodeSelector (requirements on labels and fields). */
export function validateNodeSelector(sel: NodeSelector, at: FieldPath): ErrorList {
  const terms = sel.nodeSelectorTerms ?? [];
  const termsPath = at.child('nodeSelectorTerms');
  if (terms.length === 0)
    return [FieldError.required(termsPath, 'must have at least one node selector term')];
  const errs: ErrorList = [];
  terms.forEach((term, i) => {
    for (const kind of ['matchExpressions', 'matchFields'] as const) {
      (term[kind] ?? []).forEach((req, j) => {
        const rp = termsPath.index(i).child(kind).index(j);
        const values = req.values ?? [];
        const op = req.operator ?? '';
        if (kind === 'matchExpressions') errs.push(...validateLabelName(req.key ?? '', rp.child('key')));
        if (!operators.includes(op)) {
          errs.push(FieldError.invalid(rp.child('operator'), op, 'not a valid selector operator'));
        } else if ((op === 'In' || op === 'NotIn') && values.length === 0) {
          errs.push(
            FieldError.required(rp.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"),
          );
        } else if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0) {
          errs.push(
            FieldError.forbidden(
              rp.child('values'),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          );
        } else if ((op === 'Gt' || op === 'Lt') && values.length !== 1) {
          errs.push(
            FieldError.required(
              rp.child('values'),
              "must be specified single value when `operator` is 'Lt' or 'Gt'",
            ),
          );
        }
      });
    }
  });
  return errs;
}
