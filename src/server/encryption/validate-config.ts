// ValidateEncryptionConfiguration (k8s.io/apiserver/pkg/apis/apiserver/validation/
// validation_encryption.go): the field errors, with kube's paths and messages, that stop a start.
import { goBase64Error } from '../../machinery/structural/go-base64.js';
import { FieldError, newPath, type FieldPath } from '../../machinery/validation/index.js';
import { parseGroupResource, sameGroupResource } from './group-resources.js';
import {
  providerNames,
  type Key,
  type ProviderConfiguration,
  type EncryptionConfiguration,
} from './types.js';

const atLeastOneRequired = (what: string): string => `at least one ${what} is required`;
const mandatoryField = (field: string, of: string): string => `${field} is a mandatory field for a ${of}`;

export const aesKeySizes = [16, 24, 32] as const;
export const secretboxKeySizes = [32] as const;

const providerMissing =
  'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity';
const moreThanOne =
  'more than one provider specified in a single element, should split into different list elements';

export function validateEncryptionConfiguration(c: EncryptionConfiguration): FieldError[] {
  const root = newPath('resources');
  const resources = c.resources ?? [];
  if (resources.length === 0) return [FieldError.required(root, atLeastOneRequired(root.toString()))];
  const errs: FieldError[] = [];
  resources.forEach((conf, i) => {
    const r = root.index(i).child('resources');
    const p = root.index(i).child('providers');
    const names = conf.resources ?? [];
    if (names.length === 0) errs.push(FieldError.required(r, atLeastOneRequired(r.toString())));
    errs.push(...validateResourceOverlap(names, r), ...validateResourceNames(names, r));
    const providers = conf.providers ?? [];
    if (providers.length === 0) errs.push(FieldError.required(p, atLeastOneRequired(p.toString())));
    providers.forEach((provider, j) => {
      errs.push(...validateProvider(provider, p.index(j)));
    });
  });
  return errs;
}

function validateProvider(provider: ProviderConfiguration, path: FieldPath): FieldError[] {
  const found = providerNames.filter((name) => provider[name] !== undefined).length;
  if (found === 0) return [FieldError.invalid(path, goProviderValue(provider), providerMissing)];
  if (found > 1) return [FieldError.invalid(path, goProviderValue(provider), moreThanOne)];
  if (provider.aesgcm !== undefined)
    return validateKeys(provider.aesgcm.keys, { path: path.child('aesgcm', 'keys'), sizes: aesKeySizes });
  if (provider.aescbc !== undefined)
    return validateKeys(provider.aescbc.keys, { path: path.child('aescbc', 'keys'), sizes: aesKeySizes });
  if (provider.secretbox !== undefined) {
    const at = { path: path.child('secretbox', 'keys'), sizes: secretboxKeySizes };
    return validateKeys(provider.secretbox.keys, at);
  }
  return [];
}

/** The bad value kube prints for a provider: its internal struct as encoding/json writes it. */
function goProviderValue(p: ProviderConfiguration): unknown {
  const keys = (k: { keys?: readonly Key[] } | undefined): unknown =>
    k === undefined
      ? null
      : { Keys: k.keys?.map((key) => ({ Name: key.name ?? '', Secret: key.secret ?? '' })) ?? null };
  return {
    AESGCM: keys(p.aesgcm),
    AESCBC: keys(p.aescbc),
    Secretbox: keys(p.secretbox),
    Identity: p.identity === undefined ? null : {},
    KMS:
      p.kms === undefined
        ? null
        : {
            APIVersion: p.kms.apiVersion ?? '',
            Name: p.kms.name ?? '',
            CacheSize: p.kms.cachesize ?? null,
            Endpoint: p.kms.endpoint ?? '',
            Timeout: p.kms.timeout ?? null,
          },
  };
}

function validateKeys(
  keys: readonly Key[] | undefined,
  at: { path: FieldPath; sizes: readonly number[] },
): FieldError[] {
  if (keys === undefined || keys.length === 0)
    return [FieldError.required(at.path, atLeastOneRequired('keys'))];
  return keys.flatMap((key, i) => validateKey(key, { path: at.path.index(i), sizes: at.sizes }));
}

function validateKey(key: Key, at: { path: FieldPath; sizes: readonly number[] }): FieldError[] {
  const errs: FieldError[] = [];
  if ((key.name ?? '') === '')
    errs.push(FieldError.required(at.path.child('name'), mandatoryField('name', 'key')));
  const secret = key.secret ?? '';
  if (secret === '') {
    errs.push(FieldError.required(at.path.child('secret'), mandatoryField('secret', 'key')));
    return errs;
  }
  if (goBase64Error(secret) !== undefined) {
    errs.push(FieldError.invalid(at.path.child('secret'), 'REDACTED', 'secrets must be base64 encoded'));
    return errs;
  }
  const length = Buffer.from(secret, 'base64').length;
  if (!at.sizes.includes(length)) {
    const detail = `secret is not of the expected length, got ${length}, expected one of [${at.sizes.join(' ')}]`;
    errs.push(FieldError.invalid(at.path.child('secret'), 'REDACTED', detail));
  }
  return errs;
}

function validateResourceOverlap(resources: readonly string[], path: FieldPath): FieldError[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  const found = { overlap: false, duplicate: false };
  for (const [i, r1] of grs.entries()) {
    for (const [j, r2] of grs.entries()) {
      if (i === j) continue;
      if (sameGroupResource(r1, r2) && !found.duplicate) {
        found.duplicate = true;
        continue;
      }
      if (found.overlap) continue;
      const anyResource = r1.group === '*' && r1.resource === '*';
      if (anyResource || (r1.group === r2.group && (r1.resource === '*' || r2.resource === '*'))) {
        found.overlap = true;
      }
    }
  }
  const errs: FieldError[] = [];
  if (found.duplicate)
    errs.push(FieldError.invalid(path, resources, 'the same resource cannot be specified multiple times'));
  if (found.overlap) {
    const detail =
      "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked";
    errs.push(FieldError.invalid(path, resources, detail));
  }
  return errs;
}

const nonRESTResources = new Set(['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations']);

function resourceNameError(res: string): string | undefined {
  if (res.toLowerCase() !== res) return 'resource name should not contain capital letters';
  if (res === '*')
    return "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
  if (nonRESTResources.has(res)) return 'resources which do not have REST API/s cannot be encrypted';
  const gr = parseGroupResource(res);
  if (gr.group === 'events.k8s.io') {
    return "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
  }
  if (gr.group === 'extensions')
    return "'extensions' group has been removed and cannot be used for encryption";
  if (gr.group === '*' && gr.resource !== '*')
    return 'encrypting the same resource across groups is not supported';
  return undefined;
}

function validateResourceNames(resources: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  resources.forEach((res, j) => {
    const detail = resourceNameError(res);
    if (detail !== undefined) errs.push(FieldError.invalid(path.index(j), res, detail));
  });
  return errs;
}
