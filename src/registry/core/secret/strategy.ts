// Secret policy (pkg/registry/core/secret/strategy.go) and validation (ValidateSecret and
// ValidateSecretUpdate in pkg/apis/core/validation/validation.go). Values are base64 on the wire.
import type { Secret } from '../../../api/core/v1/secret.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { base64Size, isConfigMapKey, maxSecretSize, sortedKeys } from '../configmap/config-map-key.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { unmarshalObjectError } from './go-json-error.js';
import { x509KeyPairError } from './tls-key-pair.js';

/** The secret types kube validates, with the keys they require. */
export const secretTypes = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJson: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
  bootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

export const serviceAccountNameKey = 'kubernetes.io/service-account.name';
const immutableMsg = 'field is immutable when `immutable` is set';
const redacted = '<secret contents redacted>';
const dataPath = FieldPath.of('data');

const decoded = (secret: Secret, key: string): string | undefined => {
  const v = secret.data?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
};

function dockerConfigErrors(secret: Secret, key: string): ErrorList {
  const text = decoded(secret, key);
  if (text === undefined) return [FieldError.required(dataPath.key(key))];
  const err = unmarshalObjectError(text);
  return err === undefined ? [] : [FieldError.invalid(dataPath.key(key), redacted, err)];
}

function has(secret: Secret, key: string): boolean {
  return Object.hasOwn(secret.data ?? {}, key);
}

/** The keys (or annotation) each type requires. */
function typeErrors(secret: Secret): ErrorList {
  switch (secret.type ?? '') {
    case secretTypes.serviceAccountToken:
      return (secret.metadata?.annotations?.[serviceAccountNameKey] ?? '') === ''
        ? [FieldError.required(FieldPath.of('metadata', 'annotations').key(serviceAccountNameKey))]
        : [];
    case secretTypes.dockercfg:
      return dockerConfigErrors(secret, '.dockercfg');
    case secretTypes.dockerConfigJson:
      return dockerConfigErrors(secret, '.dockerconfigjson');
    case secretTypes.basicAuth:
      // Either may be empty, but one must be there.
      return has(secret, 'username') || has(secret, 'password')
        ? []
        : [FieldError.required(dataPath.key('username')), FieldError.required(dataPath.key('password'))];
    case secretTypes.sshAuth:
      return base64Size(secret.data?.['ssh-privatekey'] ?? '') === 0
        ? [FieldError.required(dataPath.key('ssh-privatekey'))]
        : [];
    case secretTypes.tls:
      return [
        ...(has(secret, 'tls.crt') ? [] : [FieldError.required(dataPath.key('tls.crt'))]),
        ...(has(secret, 'tls.key') ? [] : [FieldError.required(dataPath.key('tls.key'))]),
      ];
    default:
      return [];
  }
}

/** ValidateSecret. */
export function validateSecret(secret: Secret): ErrorList {
  const errs = validateCoreObjectMeta(secret.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
  let total = 0;
  for (const key of sortedKeys(secret.data)) {
    for (const msg of isConfigMapKey(key)) errs.push(FieldError.invalid(dataPath.key(key), key, msg));
    total += base64Size(secret.data?.[key] ?? '');
  }
  if (total > maxSecretSize) errs.push(FieldError.tooLong(dataPath, maxSecretSize));
  return [...errs, ...typeErrors(secret)];
}

/** ValidateSecretUpdate: the type never changes; an immutable secret's data neither. */
export function validateSecretUpdate(secret: Secret, old: Secret): ErrorList {
  const errs = [
    ...validateCoreObjectMetaUpdate(secret.metadata ?? {}, old.metadata ?? {}),
    ...validateImmutableField(secret.type ?? '', old.type ?? '', FieldPath.of('type')),
  ];
  if (old.immutable === true) {
    if (secret.immutable !== true) errs.push(FieldError.forbidden(FieldPath.of('immutable'), immutableMsg));
    if (!jsonEqual(secret.data, old.data)) errs.push(FieldError.forbidden(dataPath, immutableMsg));
  }
  return [...errs, ...validateSecret(secret)];
}

/** warningsForSecret: a TLS secret whose key does not fit its certificate. */
export function warningsForSecret(secret: Secret): string[] {
  if (secret.type !== secretTypes.tls) return [];
  const err = x509KeyPairError(decoded(secret, 'tls.crt') ?? '', decoded(secret, 'tls.key') ?? '');
  return err === undefined ? [] : [err];
}

/**
 * What kube's v1 → internal conversion and defaulting do on decode: stringData merges into data
 * (overwriting) and is never stored; an empty type is Opaque.
 */
export function normalizeSecret(secret: Secret): void {
  if (secret.stringData !== undefined) {
    const data = (secret.data ??= {});
    for (const [key, value] of Object.entries(secret.stringData))
      data[key] = Buffer.from(value, 'utf8').toString('base64');
    delete secret.stringData;
  }
  if ((secret.type ?? '') === '') secret.type = secretTypes.opaque;
}

export const secretStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (_ctx, secret) => {
    normalizeSecret(secret);
  },
  validate: (_ctx, secret) => validateSecret(secret),
  warningsOnCreate: (_ctx, secret) => warningsForSecret(secret),
  prepareForUpdate: (_ctx, secret) => {
    normalizeSecret(secret);
  },
  validateUpdate: (_ctx, secret, old) => validateSecretUpdate(secret, old),
  warningsOnUpdate: (_ctx, secret) => warningsForSecret(secret),
} satisfies CreateStrategy<Secret> & UpdateStrategy<Secret>;

export const secretDeleteStrategy = {} satisfies DeleteStrategy<Secret>;
