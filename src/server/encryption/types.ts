// EncryptionConfiguration, apiserver.config.k8s.io/v1 (k8s.io/apiserver/pkg/apis/apiserver/v1),
// as decoded from the file: an absent or null field is undefined, as Go leaves it unset.

export const encryptionConfigGroupVersion = 'apiserver.config.k8s.io/v1';
export const encryptionConfigKind = 'EncryptionConfiguration';

export interface Key {
  /** The name written into each value's prefix (`k8s:enc:aescbc:v1:<name>:`). */
  readonly name?: string;
  /** The key, base64. */
  readonly secret?: string;
}

export interface KeysConfiguration {
  readonly keys?: readonly Key[];
}

export type IdentityConfiguration = Readonly<Record<string, never>>;

/** Decoded so that typos are caught; Capstan refuses KMS providers when it builds transformers. */
export interface KMSConfiguration {
  readonly apiVersion?: string;
  readonly name?: string;
  readonly cachesize?: number;
  readonly endpoint?: string;
  readonly timeout?: string;
}

export interface ProviderConfiguration {
  readonly aesgcm?: KeysConfiguration;
  readonly aescbc?: KeysConfiguration;
  readonly secretbox?: KeysConfiguration;
  readonly identity?: IdentityConfiguration;
  readonly kms?: KMSConfiguration;
}

/** The provider fields in kube's order, which is also the order of its internal struct. */
export const providerNames = ['aesgcm', 'aescbc', 'secretbox', 'identity', 'kms'] as const;
export type ProviderName = (typeof providerNames)[number];

export interface ResourceConfiguration {
  /** `secrets`, `deployments.apps`, `*.apps`, `*.` (the core group), `*.*`. */
  readonly resources?: readonly string[];
  readonly providers?: readonly ProviderConfiguration[];
}

export interface EncryptionConfiguration {
  readonly apiVersion: string;
  readonly kind: string;
  readonly resources?: readonly ResourceConfiguration[];
}
