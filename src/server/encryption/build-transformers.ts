// From a validated EncryptionConfiguration to one transformer per configured group-resource
// (getTransformerOverridesAndKMSPluginProbes in k8s.io/apiserver/pkg/server/options/
// encryptionconfig/config.go): providers in order, each provider's keys in order, `*.group` and
// `*.*` rules that may not mask a later rule.
import { newCBCTransformer } from '../../storage/value/aes-cbc.js';
import { newGCMTransformer } from '../../storage/value/aes-gcm.js';
import type { TransformationMetrics } from '../../storage/value/metrics.js';
import { newPrefixTransformers, type PrefixTransformer } from '../../storage/value/prefix-transformers.js';
import { overrideKey, type TransformerOverrides } from '../../storage/value/resource-transformers.js';
import { newSecretboxTransformer } from '../../storage/value/secretbox.js';
import { identityTransformer, type Transformer } from '../../storage/value/transformer.js';
import { groupResourceYAML, parseGroupResource } from './group-resources.js';
import type { EncryptionConfiguration, Key, ProviderConfiguration } from './types.js';

export const transformerPrefixes = {
  aescbc: 'k8s:enc:aescbc:v1:',
  aesgcm: 'k8s:enc:aesgcm:v1:',
  secretbox: 'k8s:enc:secretbox:v1:',
} as const;

const keyed = (keys: readonly Key[], make: (key: Buffer) => Transformer, noMatch: string): Transformer =>
  newPrefixTransformers({
    noMatch,
    transformers: keys.map((k) => ({
      prefix: Buffer.from(`${k.name ?? ''}:`),
      transformer: make(Buffer.from(k.secret ?? '', 'base64')),
    })),
  });

const aesNoMatch = 'no matching key was found for the provided AES transformer';

function prefixTransformer(provider: ProviderConfiguration, path: string): PrefixTransformer {
  if (provider.aesgcm !== undefined) {
    const t = keyed(provider.aesgcm.keys ?? [], newGCMTransformer, aesNoMatch);
    return { prefix: Buffer.from(transformerPrefixes.aesgcm), transformer: t };
  }
  if (provider.aescbc !== undefined) {
    const t = keyed(provider.aescbc.keys ?? [], newCBCTransformer, aesNoMatch);
    return { prefix: Buffer.from(transformerPrefixes.aescbc), transformer: t };
  }
  if (provider.secretbox !== undefined) {
    const noMatch = 'no matching key was found for the provided Secretbox transformer';
    const t = keyed(provider.secretbox.keys ?? [], newSecretboxTransformer, noMatch);
    return { prefix: Buffer.from(transformerPrefixes.secretbox), transformer: t };
  }
  if (provider.identity !== undefined) return { prefix: Buffer.alloc(0), transformer: identityTransformer };
  if (provider.kms !== undefined) {
    throw new Error(
      `${path}.kms: KMS provider ${JSON.stringify(provider.kms.name ?? '')} is not supported by Capstan; use aescbc, aesgcm or secretbox`,
    );
  }
  throw new Error(
    'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
  );
}

/** `resource "x" is masked by earlier rule "y"`: a later rule that an earlier wildcard hides. */
function checkMasking(config: EncryptionConfiguration): void {
  const seen = new Set<string>();
  for (const rc of config.resources ?? []) {
    for (const name of rc.resources ?? []) {
      const gr = parseGroupResource(name);
      for (const rule of [
        { group: gr.group, resource: '*' },
        { group: '*', resource: '*' },
      ]) {
        if (seen.has(overrideKey(rule))) {
          throw new Error(
            `resource ${JSON.stringify(groupResourceYAML(gr))} is masked by earlier rule ${JSON.stringify(groupResourceYAML(rule))}`,
          );
        }
      }
      seen.add(overrideKey(gr));
    }
  }
}

/** One prefix transformer per group-resource: the first provider listed for it writes. */
export function buildTransformerOverrides(
  config: EncryptionConfiguration,
  metrics?: TransformationMetrics,
): TransformerOverrides {
  checkMasking(config);
  const lists = new Map<string, PrefixTransformer[]>();
  (config.resources ?? []).forEach((rc, i) => {
    const providers = (rc.providers ?? []).map((p, j) =>
      prefixTransformer(p, `resources[${i}].providers[${j}]`),
    );
    for (const name of rc.resources ?? []) {
      const key = overrideKey(parseGroupResource(name));
      lists.set(key, [...(lists.get(key) ?? []), ...providers]);
    }
  });
  const overrides = new Map<string, Transformer>();
  for (const [key, transformers] of lists) {
    overrides.set(
      key,
      newPrefixTransformers({
        noMatch: 'no matching prefix found',
        transformers,
        ...(metrics === undefined ? {} : { metrics }),
      }),
    );
  }
  return overrides;
}
