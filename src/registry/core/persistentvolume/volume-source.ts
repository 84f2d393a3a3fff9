// Validation of the persistent volume sources and of nodeAffinity, from
// ValidatePersistentVolumeSpec's helpers (pkg/apis/core/validation/validation.go).
import * as sources from '../pod/validation/volume-sources.js';
import { validatePathNoBacksteps } from '../pod/validation/volume-paths.js';
import { validateHostPathSource, validateNFSSource } from '../pod/validation/volumes.js';
import type {
  NodeSelector,
  NodeSelectorTerm,
  PersistentVolumeSource,
  PersistentVolumeSpec,
} from '../../../api/core/v1/persistent-volume.js';
import {
  FieldError,
  FieldPath,
  validateLabelName,
  validateOneSource,
  type ErrorList,
  type SourceCheck,
} from '../../../machinery/validation/index.js';

function localErrors(src: NonNullable<PersistentVolumeSpec['local']>, at: FieldPath): ErrorList {
  const path = src.path ?? '';
  return path === ''
    ? [FieldError.required(at.child('path'))]
    : validatePathNoBacksteps(path, at.child('path'));
}

function csiErrors(src: NonNullable<PersistentVolumeSpec['csi']>, at: FieldPath): ErrorList {
  const errs = sources.csiDriverNameErrors(src.driver ?? '', at.child('driver'));
  if ((src.volumeHandle ?? '') === '') errs.push(FieldError.required(at.child('volumeHandle')));
  for (const key of [
    'controllerPublishSecretRef',
    'nodeStageSecretRef',
    'nodePublishSecretRef',
    'controllerExpandSecretRef',
    'nodeExpandSecretRef',
  ] as const) {
    errs.push(...sources.pvSecretReferenceErrors(src[key], at.child(key)));
  }
  return errs;
}

type Check = (s: PersistentVolumeSpec, at: FieldPath) => ErrorList;

/** The sources in ValidatePersistentVolumeSpec's order; each validates itself when it is the first one set. */
const sourceChecks: readonly (readonly [keyof PersistentVolumeSource, Check])[] = [
  ['hostPath', (s, at) => validateHostPathSource(s.hostPath ?? {}, at)],
  ['gcePersistentDisk', (s, at) => sources.gcePersistentDiskErrors(s.gcePersistentDisk ?? {}, at)],
  ['awsElasticBlockStore', (s, at) => sources.awsElasticBlockStoreErrors(s.awsElasticBlockStore ?? {}, at)],
  ['glusterfs', (s, at) => sources.glusterfsErrors(s.glusterfs ?? {}, at)],
  ['flocker', (s, at) => sources.flockerErrors(s.flocker ?? {}, at)],
  ['nfs', (s, at) => validateNFSSource(s.nfs ?? {}, at)],
  ['rbd', (s, at) => sources.rbdErrors(s.rbd ?? {}, at)],
  ['quobyte', (s, at) => sources.quobyteErrors(s.quobyte ?? {}, at)],
  ['cephfs', (s, at) => sources.cephfsErrors(s.cephfs ?? {}, at)],
  ['iscsi', (s, at) => sources.iscsiErrors(s.iscsi ?? {}, at, { persistent: true })],
  ['cinder', (s, at) => sources.cinderErrors(s.cinder ?? {}, at, { persistent: true })],
  ['fc', (s, at) => sources.fcErrors(s.fc ?? {}, at)],
  ['flexVolume', (s, at) => sources.flexVolumeErrors(s.flexVolume ?? {}, at)],
  ['azureFile', (s, at) => sources.azureFileErrors(s.azureFile ?? {}, at)],
  ['vsphereVolume', (s, at) => sources.vsphereVolumeErrors(s.vsphereVolume ?? {}, at)],
  ['photonPersistentDisk', (s, at) => sources.photonPersistentDiskErrors(s.photonPersistentDisk ?? {}, at)],
  ['portworxVolume', (s, at) => sources.portworxVolumeErrors(s.portworxVolume ?? {}, at)],
  ['azureDisk', (s, at) => sources.azureDiskErrors(s.azureDisk ?? {}, at)],
  ['scaleIO', (s, at) => sources.scaleIOErrors(s.scaleIO ?? {}, at)],
  ['local', (s, at) => localErrors(s.local ?? {}, at)],
  ['storageos', (s, at) => sources.storageOSErrors(s.storageos ?? {}, at, { persistent: true })],
  ['csi', (s, at) => csiErrors(s.csi ?? {}, at)],
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
    sourceChecks.map((source) => (source[0] === 'local' ? local : source)),
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
  return terms.flatMap((term, i) => validateNodeSelectorTerm(term, termsPath.index(i)));
}

/** ValidateNodeSelectorTerm: its requirements on labels and on fields. */
export function validateNodeSelectorTerm(term: NodeSelectorTerm, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  for (const kind of ['matchExpressions', 'matchFields'] as const) {
    (term[kind] ?? []).forEach((req, j) => {
      const rp = at.child(kind).index(j);
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
  return errs;
}
