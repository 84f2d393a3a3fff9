// Encryption at rest for one server, from the loaded --encryption-provider-config: the transformers
// the storage factory hands out, the health check, and the automatic reload (the part of kube's
// EtcdOptions.Complete/ApplyWithStorageFactoryTo that concerns encryption).
import {
  DynamicTransformers,
  StaticTransformers,
  type ResourceTransformers,
} from '../../storage/value/resource-transformers.js';
import { namedCheck, type HealthChecker } from '../healthz/health-checker.js';
import type { Logger } from '../logging/logger.js';
import { transformersFor, type LoadedEncryptionConfig } from './load-config.js';
import type { EncryptionMetrics } from './metrics.js';
import { EncryptionConfigReloader } from './reload-controller.js';

/**
 * kube's name for the encryption check when the config reloads (and for KMS v2 plugins): it probes
 * the KMS plugins of the configuration in force. Capstan has no KMS plugins, so it answers ok.
 */
export const kmsReloadHealthCheckName = 'kms-providers';

export interface EncryptionAtRestInit {
  /** --encryption-provider-config. */
  readonly path: string;
  readonly loaded: LoadedEncryptionConfig;
  /** --encryption-provider-config-automatic-reload. */
  readonly automaticReload: boolean;
  readonly logger: Logger;
  readonly metrics?: EncryptionMetrics;
  readonly pollIntervalMs?: number;
}

export class EncryptionAtRest {
  readonly #resourceTransformers: ResourceTransformers;
  readonly #reloader: EncryptionConfigReloader | undefined;

  constructor(init: EncryptionAtRestInit) {
    const overrides = transformersFor(init.loaded, init.metrics);
    init.metrics?.recordLastConfig(init.loaded.contentHash);
    if (!init.automaticReload) {
      this.#resourceTransformers = new StaticTransformers(overrides);
      return;
    }
    const dynamic = new DynamicTransformers(overrides);
    this.#resourceTransformers = dynamic;
    this.#reloader = new EncryptionConfigReloader({
      path: init.path,
      transformers: dynamic,
      contentHash: init.loaded.contentHash,
      logger: init.logger,
      ...(init.metrics === undefined ? {} : { metrics: init.metrics }),
      ...(init.pollIntervalMs === undefined ? {} : { pollIntervalMs: init.pollIntervalMs }),
    });
  }

  /** What the storage factory asks for each resource's transformer. */
  get resourceTransformers(): ResourceTransformers {
    return this.#resourceTransformers;
  }

  /** The reload controller, when the configuration reloads. */
  get reloader(): EncryptionConfigReloader | undefined {
    return this.#reloader;
  }

  /** kube adds `kms-providers` to /healthz and /readyz only when reloading (or for KMS plugins). */
  get healthChecks(): readonly HealthChecker[] {
    return this.#reloader === undefined ? [] : [namedCheck(kmsReloadHealthCheckName, () => undefined)];
  }

  /** Starts watching the file (kube's start-encryption-provider-config-automatic-reload hook). */
  start(): void {
    this.#reloader?.start();
  }

  async close(): Promise<void> {
    await this.#reloader?.close();
  }
}
