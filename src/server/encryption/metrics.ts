// What encryption at rest reports beyond the transformations: the automatic reloads
// (k8s.io/apiserver/pkg/server/options/encryptionconfig/metrics). The server maps both onto
// prom-client (prom-encryption-metrics.ts).
import type { TransformationMetrics } from '../../storage/value/metrics.js';

export const reloadStatuses = ['success', 'failure'] as const;
export type ReloadStatus = (typeof reloadStatuses)[number];

export interface EncryptionConfigMetrics {
  /** One automatic reload; a success carries the new file's content hash. */
  recordAutomaticReload(result: { readonly status: ReloadStatus; readonly contentHash?: string }): void;
  /** The configuration in force (at start and after each successful reload). */
  recordLastConfig(contentHash: string): void;
}

export type EncryptionMetrics = TransformationMetrics & EncryptionConfigMetrics;
