// StorageClass policy (pkg/registry/storage/storageclass/strategy.go) and validation
// (ValidateStorageClass and ValidateStorageClassUpdate in pkg/apis/storage/validation).
import {
  reclaimPolicies,
  volumeBindingModes,
  type StorageClass,
} from '../../../api/storage/v1/storage-class.js';
import {
  FieldError,
  FieldPath,
  isQualifiedName,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

const maxProvisionerParameterSize = 256 * 1024;
const maxProvisionerParameterLen = 512;

function validateProvisioner(provisioner: string, path: FieldPath): ErrorList {
  if (provisioner === '') return [FieldError.required(path, '')];
  return isQualifiedName(provisioner.toLowerCase()).map((m) => FieldError.invalid(path, provisioner, m));
}

function validateParameters(params: Readonly<Record<string, string>>, path: FieldPath): ErrorList {
  const entries = Object.entries(params);
  if (entries.length > maxProvisionerParameterLen) {
    return [FieldError.tooMany(path, entries.length, maxProvisionerParameterLen)];
  }
  const errs: ErrorList = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === '') errs.push(FieldError.invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > maxProvisionerParameterSize) errs.push(FieldError.tooLong(path, maxProvisionerParameterSize));
  return errs;
}

function validateTopologies(sc: StorageClass, path: FieldPath): ErrorList {
  return (sc.allowedTopologies ?? []).flatMap((term, i) => {
    const exprs = term.matchLabelExpressions ?? [];
    const termPath = path.index(i);
    if (exprs.length === 0) return [FieldError.required(termPath, 'must have at least one label expression')];
    return exprs.flatMap((e, j) => {
      const p = termPath.child('matchLabelExpressions').index(j);
      const errs = isQualifiedName(e.key).map((m) => FieldError.invalid(p.child('key'), e.key, m));
      if (e.values.length === 0)
        errs.push(FieldError.required(p.child('values'), 'must specify as least one value'));
      return errs;
    });
  });
}

/** ValidateStorageClass (metadata with DNS-subdomain names, then the fields). */
export function validateStorageClass(sc: StorageClass): ErrorList {
  return [
    ...validateObjectMeta(sc.metadata ?? {}, { requiresNamespace: false, validateName: nameIsDNSSubdomain }),
    ...validateStorageClassFields(sc),
  ];
}

function validateStorageClassFields(sc: StorageClass): ErrorList {
  const errs = validateProvisioner(sc.provisioner, FieldPath.of('provisioner'));
  errs.push(...validateParameters(sc.parameters ?? {}, FieldPath.of('parameters')));
  const reclaim = sc.reclaimPolicy ?? '';
  if (reclaim !== '' && !(reclaimPolicies as readonly string[]).includes(reclaim)) {
    errs.push(FieldError.notSupported(FieldPath.of('reclaimPolicy'), reclaim, reclaimPolicies));
  }
  const mode = sc.volumeBindingMode;
  if (mode === undefined) errs.push(FieldError.required(FieldPath.of('volumeBindingMode'), ''));
  else if (!(volumeBindingModes as readonly string[]).includes(mode)) {
    errs.push(FieldError.notSupported(FieldPath.of('volumeBindingMode'), mode, volumeBindingModes));
  }
  errs.push(...validateTopologies(sc, FieldPath.of('allowedTopologies')));
  return errs;
}

const sameParameters = (a: StorageClass, b: StorageClass): boolean => {
  const x = a.parameters ?? {};
  const y = b.parameters ?? {};
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
};

/** ValidateStorageClassUpdate: provisioner, parameters, reclaimPolicy and volumeBindingMode are fixed. */
export function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): ErrorList {
  const errs: ErrorList = [];
  if (!sameParameters(sc, old)) {
    errs.push(FieldError.forbidden(FieldPath.of('parameters'), 'updates to parameters are forbidden.'));
  }
  if (sc.provisioner !== old.provisioner) {
    errs.push(FieldError.forbidden(FieldPath.of('provisioner'), 'updates to provisioner are forbidden.'));
  }
  if (sc.reclaimPolicy !== old.reclaimPolicy) {
    errs.push(FieldError.forbidden(FieldPath.of('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  }
  errs.push(
    ...validateImmutableField(sc.volumeBindingMode, old.volumeBindingMode, FieldPath.of('volumeBindingMode')),
  );
  return errs;
}

/** SetDefaults_StorageClass, for objects that skip the decoder. */
function setDefaults(sc: StorageClass): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

export const storageClassStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDefaults,
  prepareForCreate: (_ctx, sc) => {
    setDefaults(sc);
  },
  validate: (_ctx, sc) => validateStorageClass(sc),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, sc) => {
    setDefaults(sc);
  },
  validateUpdate: (_ctx, sc, old) => [...validateStorageClass(sc), ...validateStorageClassUpdate(sc, old)],
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<StorageClass> & UpdateStrategy<StorageClass>;

export const storageClassDeleteStrategy = {} satisfies DeleteStrategy<StorageClass>;
