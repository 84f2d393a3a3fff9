// Validation of the volume sources beyond the everyday ones (the in-tree cloud and legacy plugins,
// csi, ephemeral, image), shared by pod volumes and persistent volumes where kube shares it
// (validate*VolumeSource in pkg/apis/core/validation/validation.go).
import type * as src from '../../../../api/core/v1/volume-sources.js';
import type { SecretReference } from '../../../../api/core/v1/persistent-volume.js';
import {
  byteLength,
  FieldError,
  inclusiveRangeError,
  isDNS1123Label,
  isDNS1123Subdomain,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';

/** Required when empty; `errs` collects, as kube's allErrs does. */
function required(value: string | undefined, at: FieldPath, errs: ErrorList): void {
  if ((value ?? '') === '') errs.push(FieldError.required(at));
}
const dns1123Label = (value: string, at: FieldPath): ErrorList =>
  isDNS1123Label(value).map((msg) => FieldError.invalid(at, value, msg));

/** kube's pdPartitionErrorMsg: GCE and AWS partitions. */
function partitionErrors(partition: number | undefined, at: FieldPath): ErrorList {
  const p = partition ?? 0;
  return p < 0 || p > 255 ? [FieldError.invalid(at, p, inclusiveRangeError(1, 255))] : [];
}

export function gcePersistentDiskErrors(s: src.GCEPersistentDiskVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  required(s.pdName, at.child('pdName'), errs);
  return [...errs, ...partitionErrors(s.partition, at.child('partition'))];
}

export function awsElasticBlockStoreErrors(
  s: src.AWSElasticBlockStoreVolumeSource,
  at: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  required(s.volumeID, at.child('volumeID'), errs);
  return [...errs, ...partitionErrors(s.partition, at.child('partition'))];
}

// kube's iqn pattern is not anchored at the start: it may match past the prefix.
const iscsiFormats: Readonly<Record<string, RegExp>> = {
  iqn: /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\t\n\f\r ]+)$/,
  eui: /^eui.[A-Za-z0-9]{16}$/,
  naa: /^naa.[A-Za-z0-9]{32}$/,
};

/** An iSCSI qualified name: the prefix message, or `must be valid format`. */
function iscsiNameErrors(name: string, at: FieldPath, prefixMessage: string): ErrorList {
  const prefix = name.slice(0, 3);
  const format = iscsiFormats[prefix];
  if (format === undefined) return [FieldError.invalid(at, name, prefixMessage)];
  return format.test(name) ? [] : [FieldError.invalid(at, name, 'must be valid format')];
}

type ISCSISource = src.ISCSIVolumeSource | src.ISCSIPersistentVolumeSource;

/**
 * validateISCSIVolumeSource and its persistent twin, which says less about a bad prefix and, given
 * the volume's name, checks the initiator's `<name>:<portal>` length here (a pod's volume does so
 * in validateVolumeSource).
 */
export function iscsiErrors(
  s: ISCSISource,
  at: FieldPath,
  opts: { persistent: boolean; pvName?: string },
): ErrorList {
  const errs: ErrorList = [];
  const prefixMessage = opts.persistent
    ? 'must be valid format'
    : 'must be valid format starting with iqn, eui, or naa';
  required(s.targetPortal, at.child('targetPortal'), errs);
  if (opts.persistent && opts.pvName !== undefined && iscsiNameTooLong(s, opts.pvName))
    errs.push(FieldError.invalid(at.child('targetportal'), s.targetPortal ?? '', iscsiTooLongMessage));
  const iqn = s.iqn ?? '';
  if (iqn === '') errs.push(FieldError.required(at.child('iqn')));
  else errs.push(...iscsiNameErrors(iqn, at.child('iqn'), prefixMessage));
  const lun = s.lun ?? 0;
  if (lun < 0 || lun > 255) errs.push(FieldError.invalid(at.child('lun'), lun, inclusiveRangeError(0, 255)));
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && s.secretRef === undefined)
    errs.push(FieldError.required(at.child('secretRef')));
  if (opts.persistent && s.secretRef !== undefined)
    required(s.secretRef.name, at.child('secretRef', 'name'), errs);
  if (s.initiatorName != null)
    errs.push(...iscsiNameErrors(s.initiatorName, at.child('initiatorname'), prefixMessage));
  return errs;
}

export const iscsiTooLongMessage =
  'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.';

/** `<volume name>:<targetPortal>` must fit the 64 characters of an initiator name, when one is set. */
export function iscsiNameTooLong(s: ISCSISource, volumeName: string): boolean {
  return s.initiatorName != null && byteLength(`${volumeName}:${s.targetPortal ?? ''}`) > 64;
}

export function glusterfsErrors(
  s: src.GlusterfsVolumeSource | src.GlusterfsPersistentVolumeSource,
  at: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  required(s.endpoints, at.child('endpoints'), errs);
  required(s.path, at.child('path'), errs);
  const ns = 'endpointsNamespace' in s ? s.endpointsNamespace : undefined;
  if (ns === '')
    errs.push(
      FieldError.invalid(
        at.child('endpointsNamespace'),
        ns,
        'if the endpointnamespace is set, it must be a valid namespace name',
      ),
    );
  else if (ns !== undefined) errs.push(...dns1123Label(ns, at.child('endpointsNamespace')));
  return errs;
}

export function flockerErrors(s: src.FlockerVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const name = s.datasetName ?? '';
  const uid = s.datasetUUID ?? '';
  if (name === '' && uid === '')
    errs.push(FieldError.required(at, 'one of datasetName and datasetUUID is required'));
  if (name !== '' && uid !== '')
    errs.push(
      FieldError.invalid(at, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'),
    );
  if (name.includes('/'))
    errs.push(FieldError.invalid(at.child('datasetName'), name, "must not contain '/'"));
  return errs;
}

export function rbdErrors(s: src.RBDVolumeSource | src.RBDPersistentVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if ((s.monitors ?? []).length === 0) errs.push(FieldError.required(at.child('monitors')));
  required(s.image, at.child('image'), errs);
  return errs;
}

/** A secretRef's name (and, for persistent volumes, namespace) must be set. */
function secretRefNameErrors(
  ref: { name?: string; namespace?: string } | undefined,
  at: FieldPath,
  withNamespace: boolean,
): ErrorList {
  if (ref === undefined) return [];
  const errs: ErrorList = [];
  required(ref.name, at.child('secretRef', 'name'), errs);
  if (withNamespace) required(ref.namespace, at.child('secretRef', 'namespace'), errs);
  return errs;
}

export function cinderErrors(
  s: src.CinderVolumeSource | src.CinderPersistentVolumeSource,
  at: FieldPath,
  opts: { persistent: boolean },
): ErrorList {
  const errs: ErrorList = [];
  required(s.volumeID, at.child('volumeID'), errs);
  return [...errs, ...secretRefNameErrors(s.secretRef, at, opts.persistent)];
}

export function cephfsErrors(
  s: src.CephFSVolumeSource | src.CephFSPersistentVolumeSource,
  at: FieldPath,
): ErrorList {
  return (s.monitors ?? []).length === 0 ? [FieldError.required(at.child('monitors'))] : [];
}

/** validateQuobyteVolumeSource: host:port registries, a tenant of at most 64 characters, a volume. */
export function quobyteErrors(s: src.QuobyteVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const registry = s.registry ?? '';
  const registryMsg = 'must be a host:port pair or multiple pairs separated by commas';
  if (registry === '') errs.push(FieldError.required(at.child('registry'), registryMsg));
  else if ((s.tenant ?? '').length >= 65)
    errs.push(
      FieldError.required(at.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'),
    );
  else
    for (const pair of registry.split(','))
      if (!isHostPort(pair)) errs.push(FieldError.invalid(at.child('registry'), registry, registryMsg));
  required(s.volume, at.child('volume'), errs);
  return errs;
}

/**
 * net.SplitHostPort's acceptance: `host:port` or `[host]:port`, one colon outside the brackets and
 * no other bracket anywhere.
 */
function isHostPort(pair: string): boolean {
  return /^(\[[^[\]]*\]|[^:[\]]*):[^:[\]]*$/.test(pair);
}

export function fcErrors(s: src.FCVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const wwns = s.targetWWNs ?? [];
  const wwids = s.wwids ?? [];
  if (wwns.length === 0 && wwids.length === 0)
    errs.push(
      FieldError.required(at.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'),
    );
  if (wwns.length > 0 && wwids.length > 0)
    errs.push(
      FieldError.invalid(
        at.child('targetWWNs'),
        wwns,
        'targetWWNs and wwids can not be specified simultaneously',
      ),
    );
  if (wwns.length > 0) {
    if (s.lun === undefined)
      errs.push(FieldError.required(at.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (s.lun < 0 || s.lun > 255)
      errs.push(FieldError.invalid(at.child('lun'), s.lun, inclusiveRangeError(0, 255)));
  }
  return errs;
}

/** validateFlexVolumeSource: a driver, and no options in the kubernetes.io or k8s.io namespaces. */
export function flexVolumeErrors(
  s: src.FlexVolumeSource | src.FlexPersistentVolumeSource,
  at: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  required(s.driver, at.child('driver'), errs);
  for (const key of Object.keys(s.options ?? {})) {
    const slash = key.indexOf('/');
    const namespace = `.${(slash < 0 ? key : key.slice(0, slash)).toLowerCase()}`;
    if (namespace.endsWith('.kubernetes.io') || namespace.endsWith('.k8s.io'))
      errs.push(
        FieldError.invalid(
          at.child('options').key(key),
          key,
          'kubernetes.io and k8s.io namespaces are reserved',
        ),
      );
  }
  return errs;
}

export function azureFileErrors(
  s: src.AzureFileVolumeSource | src.AzureFilePersistentVolumeSource,
  at: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  required(s.secretName, at.child('secretName'), errs);
  required(s.shareName, at.child('shareName'), errs);
  if ('secretNamespace' in s && s.secretNamespace === '')
    errs.push(FieldError.required(at.child('secretNamespace')));
  return errs;
}

const cachingModes = ['None', 'ReadOnly', 'ReadWrite'];
const diskKinds = ['Dedicated', 'Managed', 'Shared'];

export function azureDiskErrors(s: src.AzureDiskVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  required(s.diskName, at.child('diskName'), errs);
  const uri = s.diskURI ?? '';
  if (uri === '') errs.push(FieldError.required(at.child('diskURI')));
  if (s.cachingMode !== undefined && !cachingModes.includes(s.cachingMode))
    errs.push(FieldError.notSupported(at.child('cachingMode'), s.cachingMode, cachingModes));
  if (s.kind === undefined) return errs;
  if (!diskKinds.includes(s.kind)) errs.push(FieldError.notSupported(at.child('kind'), s.kind, diskKinds));
  if (s.kind === 'Managed' && !uri.startsWith('/subscriptions/'))
    errs.push(
      FieldError.notSupported(at.child('diskURI'), uri, [
        '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}',
      ]),
    );
  if (s.kind !== 'Managed' && !uri.startsWith('https://'))
    errs.push(
      FieldError.notSupported(at.child('diskURI'), uri, [
        'https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd',
      ]),
    );
  return errs;
}

export function vsphereVolumeErrors(s: src.VsphereVirtualDiskVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  required(s.volumePath, at.child('volumePath'), errs);
  return errs;
}

export function photonPersistentDiskErrors(
  s: src.PhotonPersistentDiskVolumeSource,
  at: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  required(s.pdID, at.child('pdID'), errs);
  return errs;
}

export function portworxVolumeErrors(s: src.PortworxVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  required(s.volumeID, at.child('volumeID'), errs);
  return errs;
}

export function scaleIOErrors(
  s: src.ScaleIOVolumeSource | src.ScaleIOPersistentVolumeSource,
  at: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  required(s.gateway, at.child('gateway'), errs);
  required(s.system, at.child('system'), errs);
  required(s.volumeName, at.child('volumeName'), errs);
  return errs;
}

export function storageOSErrors(
  s: src.StorageOSVolumeSource | src.StorageOSPersistentVolumeSource,
  at: FieldPath,
  opts: { persistent: boolean },
): ErrorList {
  const errs: ErrorList = [];
  const name = s.volumeName ?? '';
  if (name === '') errs.push(FieldError.required(at.child('volumeName')));
  else errs.push(...dns1123Label(name, at.child('volumeName')));
  const ns = s.volumeNamespace ?? '';
  if (ns !== '') errs.push(...dns1123Label(ns, at.child('volumeNamespace')));
  return [...errs, ...secretRefNameErrors(s.secretRef, at, opts.persistent)];
}

/** ValidateCSIDriverName. */
export function csiDriverNameErrors(name: string, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (name === '') errs.push(FieldError.required(at));
  if (name.length > 63) errs.push(FieldError.tooLong(at, 63));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(FieldError.invalid(at, name, msg));
  return errs;
}

/** validateCSIVolumeSource: kube reports a bad secret name at `csi.name`. */
export function csiVolumeErrors(s: src.CSIVolumeSource, at: FieldPath): ErrorList {
  const errs = csiDriverNameErrors(s.driver ?? '', at.child('driver'));
  const ref = s.nodePublishSecretRef;
  if (ref === undefined) return errs;
  const name = ref.name ?? '';
  if (name === '') errs.push(FieldError.required(at.child('nodePublishSecretRef', 'name')));
  else for (const msg of isDNS1123Subdomain(name)) errs.push(FieldError.invalid(at.child('name'), name, msg));
  return errs;
}

const pullPolicies = ['Always', 'IfNotPresent', 'Never'];

/** validateImageVolumeSource: pods need a reference; the pull policy is one of kube's three. */
export function imageVolumeErrors(s: src.ImageVolumeSource, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  required(s.reference, at.child('reference'), errs);
  const policy = s.pullPolicy;
  if (policy !== undefined && policy !== '' && !pullPolicies.includes(policy))
    errs.push(FieldError.notSupported(at.child('pullPolicy'), policy, pullPolicies));
  return errs;
}

/** validatePVSecretReference. */
export function pvSecretReferenceErrors(ref: SecretReference | undefined, at: FieldPath): ErrorList {
  if (ref === undefined) return [];
  const errs: ErrorList = [];
  const name = ref.name ?? '';
  const ns = ref.namespace ?? '';
  if (name === '') errs.push(FieldError.required(at.child('name')));
  else for (const msg of isDNS1123Subdomain(name)) errs.push(FieldError.invalid(at.child('name'), name, msg));
  if (ns === '') errs.push(FieldError.required(at.child('namespace')));
  else errs.push(...dns1123Label(ns, at.child('namespace')));
  return errs;
}
