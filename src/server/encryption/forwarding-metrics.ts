// Encryption metrics for a server that does not exist yet: the storage (and its transformers) is
// assembled before the server whose metrics registry receives them. Until attached, observations are
// dropped, except the configuration in force, which is replayed.
import type { TransformationObservation } from '../../storage/value/metrics.js';
import type { EncryptionMetrics, ReloadStatus } from './metrics.js';

export class ForwardingEncryptionMetrics implements EncryptionMetrics {
  #target: EncryptionMetrics | undefined;
  #lastConfig: string | undefined;

  attach(target: EncryptionMetrics): void {
    this.#target = target;
    if (this.#lastConfig !== undefined) target.recordLastConfig(this.#lastConfig);
  }

  recordTransformation(observation: TransformationObservation): void {
    this.#target?.recordTransformation(observation);
  }

  recordAutomaticReload(result: { readonly status: ReloadStatus; readonly contentHash?: string }): void {
    this.#target?.recordAutomaticReload(result);
  }

  recordLastConfig(contentHash: string): void {
    this.#lastConfig = contentHash;
    this.#target?.recordLastConfig(contentHash);
  }
}
