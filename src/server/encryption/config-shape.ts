// The shape of EncryptionConfiguration v1 for strict decoding: which fields exist and the Go type
// each has, so that unknown fields and type mismatches read as kube's decoder reports them.

export type Shape =
  | { readonly kind: 'string' }
  | { readonly kind: 'int32' }
  | { readonly kind: 'duration' }
  | { readonly kind: 'list'; readonly goType: string; readonly of: Shape }
  | { readonly kind: 'struct'; readonly goType: string; readonly fields: Readonly<Record<string, Shape>> };

const string: Shape = { kind: 'string' };
const struct = (goType: string, fields: Record<string, Shape>): Shape => ({ kind: 'struct', goType, fields });
const list = (goType: string, of: Shape): Shape => ({ kind: 'list', goType, of });

const keys = list('[]v1.Key', struct('v1.Key', { name: string, secret: string }));

const provider = struct('v1.ProviderConfiguration', {
  aesgcm: struct('v1.AESConfiguration', { keys }),
  aescbc: struct('v1.AESConfiguration', { keys }),
  secretbox: struct('v1.SecretboxConfiguration', { keys }),
  identity: struct('v1.IdentityConfiguration', {}),
  kms: struct('v1.KMSConfiguration', {
    apiVersion: string,
    name: string,
    cachesize: { kind: 'int32' },
    endpoint: string,
    timeout: { kind: 'duration' },
  }),
});

export const encryptionConfigurationShape: Shape = struct('v1.EncryptionConfiguration', {
  apiVersion: string,
  kind: string,
  resources: list(
    '[]v1.ResourceConfiguration',
    struct('v1.ResourceConfiguration', {
      resources: list('[]string', string),
      providers: list('[]v1.ProviderConfiguration', provider),
    }),
  ),
});
