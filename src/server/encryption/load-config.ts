// Reads, decodes, validates and checks an encryption provider configuration file
// (LoadEncryptionConfig in k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go), with
// kube's error texts. A loaded configuration always builds: building cannot fail afterwards.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { toAggregate } from '../../machinery/validation/index.js';
import type { TransformationMetrics } from '../../storage/value/metrics.js';
import type { TransformerOverrides } from '../../storage/value/resource-transformers.js';
import { buildTransformerOverrides } from './build-transformers.js';
import { decodeEncryptionConfiguration } from './decode-config.js';
import type { EncryptionConfiguration } from './types.js';
import { validateEncryptionConfiguration } from './validate-config.js';

export interface LoadedEncryptionConfig {
  readonly config: EncryptionConfiguration;
  /** Identifies the file's content without holding its keys (kube's EncryptionFileContentHash). */
  readonly contentHash: string;
}

/** computeEncryptionConfigHash: in-memory only, no stability promised across releases. */
export function encryptionConfigHash(data: Buffer): string {
  return `k8s:enc:unstable:1:${createHash('sha256').update(data).digest('hex')}`;
}

/** os.PathError's text for a read that failed. */
function goFileError(err: unknown, path: string): string {
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case 'ENOENT':
      return `open ${path}: no such file or directory`;
    case 'EACCES':
      return `open ${path}: permission denied`;
    case 'EISDIR':
      return `read ${path}: is a directory`;
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** loadDataAndHash. */
export async function readEncryptionConfigFile(path: string): Promise<{ data: Buffer; hash: string }> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (err) {
    throw new Error(
      `error reading encryption provider configuration file ${JSON.stringify(path)}: ${goFileError(err, path)}`,
    );
  }
  if (data.length === 0) {
    throw new Error(`encryption provider configuration file ${JSON.stringify(path)} is empty`);
  }
  return { data, hash: encryptionConfigHash(data) };
}

async function loadConfig(path: string): Promise<LoadedEncryptionConfig> {
  let file: { data: Buffer; hash: string };
  try {
    file = await readEncryptionConfigFile(path);
  } catch (err) {
    throw new Error(`error while loading file: ${(err as Error).message}`);
  }
  let config: EncryptionConfiguration;
  try {
    config = decodeEncryptionConfiguration(file.data.toString('utf8'));
  } catch (err) {
    throw new Error(
      `error decoding encryption provider configuration file ${JSON.stringify(path)}: ${(err as Error).message}`,
    );
  }
  const invalid = toAggregate(validateEncryptionConfiguration(config));
  if (invalid !== undefined) throw new Error(invalid.error());
  return { config, contentHash: file.hash };
}

/** Loads the file; throws `error while parsing file: …` or `error while building transformers: …`. */
export async function loadEncryptionConfig(path: string): Promise<LoadedEncryptionConfig> {
  let loaded: LoadedEncryptionConfig;
  try {
    loaded = await loadConfig(path);
  } catch (err) {
    throw new Error(`error while parsing file: ${(err as Error).message}`);
  }
  try {
    // Build once (masked rules, unsupported providers) so that it fails here, not later.
    buildTransformerOverrides(loaded.config);
  } catch (err) {
    throw new Error(`error while building transformers: ${(err as Error).message}`);
  }
  return loaded;
}

/** The transformers of a loaded configuration, reporting to `metrics`. */
export function transformersFor(
  loaded: LoadedEncryptionConfig,
  metrics?: TransformationMetrics,
): TransformerOverrides {
  return buildTransformerOverrides(loaded.config, metrics);
}
