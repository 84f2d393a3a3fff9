// Encryption configuration files for tests: keys, providers, and a writer.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';

export const providerKinds = ['aescbc', 'aesgcm', 'secretbox'] as const;
export type ProviderKind = (typeof providerKinds)[number];

export interface TestKey {
  readonly name: string;
  /** base64, 32 bytes (good for every provider). */
  readonly secret: string;
}

export const newKey = (name: string): TestKey => ({ name, secret: randomBytes(32).toString('base64') });

export type TestProvider = { readonly kind: ProviderKind; readonly keys: readonly TestKey[] } | 'identity';

/** An EncryptionConfiguration (JSON, which is YAML too) with one rule. */
export function encryptionConfig(resources: readonly string[], providers: readonly TestProvider[]): string {
  return JSON.stringify({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [
      {
        resources,
        providers: providers.map((p) =>
          p === 'identity' ? { identity: {} } : { [p.kind]: { keys: p.keys } },
        ),
      },
    ],
  });
}

export async function writeEncryptionConfig(
  path: string,
  resources: readonly string[],
  providers: readonly TestProvider[],
): Promise<void> {
  await writeFile(path, encryptionConfig(resources, providers));
}
